import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, type TestApp } from './helpers';
import { createSite, fullFlow, registerPartner, verifiedUser, type CreatedSite } from './oidc-helpers';

let t: TestApp;
let site: CreatedSite;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  const partner = await registerPartner(t);
  site = await createSite(t, partner.token, {
    allowed_scopes: [
      'basic_info',
      'profile',
      'email',
      'AGE_12',
      'AGE_16',
      'AGE_18',
      'AGE_21',
      'location_verification',
      'identity_verification',
    ],
  });
});
afterAll(async () => {
  await t?.close();
});

async function userinfo(scope: string, facts: Parameters<typeof verifiedUser>[1], consent?: string[]) {
  const user = await verifiedUser(t, facts);
  const { config, tokens } = await fullFlow(t, site, user, { scope: `openid ${scope}`, consent });
  const info = await client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck);
  return { info, user };
}

describe('claims per scope (DESIGN.md §4, minimal disclosure)', () => {
  it('basic_info alone: only the pairwise subject, no name, e-mail, age or place', async () => {
    const { info } = await userinfo('basic_info', {
      proven_min_age: 30,
      location_country: 'US',
      identity: true,
    });
    expect(Object.keys(info)).toEqual(['sub']);
  });

  it('profile adds only the name, email only the address and whether it is confirmed', async () => {
    const named = await userinfo('basic_info profile', {});
    expect(Object.keys(named.info).sort()).toEqual(['name', 'sub']);
    const mailed = await userinfo('basic_info email', {});
    expect(Object.keys(mailed.info).sort()).toEqual(['email', 'email_verified', 'sub']);
    expect(mailed.info.email).toBe(mailed.user.email);
  });

  it('lets the user decline name and e-mail on the consent screen', async () => {
    const { info } = await userinfo('basic_info profile email AGE_18', { proven_min_age: 30 }, [
      'basic_info',
      'AGE_18',
    ]);
    expect(info).not.toHaveProperty('name');
    expect(info).not.toHaveProperty('email');
    expect(info).toMatchObject({ age_verified: true });
  });

  it('releases verification times to the day only, so they cannot link a user across partners', async () => {
    const { info } = await userinfo('basic_info AGE_18 identity_verification', {
      proven_min_age: 30,
      identity: true,
    });
    const day = `${t.clock.now().toISOString().slice(0, 10)}T00:00:00Z`;
    expect(info.verification_timestamp).toBe(day);
    const verification = (
      info.verified_claims as { verification: { time: string; evidence: Array<{ time: string }> } }
    ).verification;
    expect(verification.time).toBe(day);
    expect(verification.evidence[0]?.time).toBe(day);
  });

  it.each([
    ['AGE_12', 16, { age_verified: true, age_threshold: 12, age_over_12: true }],
    ['AGE_16', 16, { age_verified: true, age_threshold: 16, age_over_16: true }],
    ['AGE_18', 16, { age_verified: false, age_threshold: 18 }],
    ['AGE_21', 25, { age_verified: true, age_threshold: 21, age_over_21: true }],
  ])('%s for a user proven %i or older', async (scope, age, expected) => {
    const { info } = await userinfo(`basic_info ${scope}`, { proven_min_age: age });
    expect(info).toMatchObject(expected);
    // Proven below the threshold is "not proven", never "under": no age_over_NN at all.
    if (!expected.age_verified) expect(info).not.toHaveProperty(`age_over_${expected.age_threshold}`);
    expect(typeof info.verification_timestamp).toBe('string');
    expect(info).not.toHaveProperty('birthdate');
    expect(info).not.toHaveProperty('location');
  });

  it('several age scopes answer each threshold and report the highest', async () => {
    const { info } = await userinfo('basic_info AGE_18 AGE_21', { proven_min_age: 19 });
    expect(info).toMatchObject({
      age_threshold: 21,
      age_verified: false,
      age_over_18: true,
    });
    expect(info).not.toHaveProperty('age_over_21');
  });

  it('an age scope for a user who proved nothing says so: age_verified false, no age_over_NN, no timestamp', async () => {
    const { info } = await userinfo('basic_info AGE_18', {});
    expect(info).toMatchObject({ age_verified: false, age_threshold: 18 });
    expect(info).not.toHaveProperty('age_over_18');
    expect(info).not.toHaveProperty('verification_timestamp');
  });

  it('location_verification: the verified country and state only', async () => {
    const { info } = await userinfo('basic_info location_verification', {
      location_country: 'US',
      location_state: 'CA',
      proven_min_age: 40,
    });
    expect(info).toMatchObject({ location_verified: true, location: { country: 'US', state: 'CA' } });
    expect(info).not.toHaveProperty('age_verified');
    const unverified = await userinfo('basic_info location_verification', {});
    expect(unverified.info.location_verified).toBe(false);
    expect(unverified.info).not.toHaveProperty('location');
  });

  it('identity_verification: a yes/no with Identity Assurance metadata, no personal data', async () => {
    const { info } = await userinfo('basic_info identity_verification', { identity: true });
    expect(info.identity_verified).toBe(true);
    expect(info.verified_claims).toMatchObject({
      verification: { trust_framework: 'attestly', evidence: [{ type: 'document' }] },
      claims: { identity_verified: true },
    });
    const unverified = await userinfo('basic_info identity_verification', {});
    expect(unverified.info).toMatchObject({ identity_verified: false });
    expect(unverified.info).not.toHaveProperty('verified_claims');
  });

  it('everything at once matches the spec sample userinfo fields', async () => {
    const { info } = await userinfo(
      'basic_info profile email AGE_18 location_verification identity_verification',
      {
        proven_min_age: 18,
        location_country: 'GB',
        location_state: 'Wales',
        identity: true,
      },
    );
    for (const field of [
      'sub',
      'email',
      'email_verified',
      'age_verified',
      'age_threshold',
      'location_verified',
      'location',
      'verification_timestamp',
    ]) {
      expect(info).toHaveProperty(field);
    }
  });

  it('expired proofs no longer count', async () => {
    const user = await verifiedUser(t, { proven_min_age: 30 });
    await t.db.models.User.update(
      { age_verified_until: new Date(t.clock.now().getTime() - 1000) },
      { where: { id: user.user.id } },
    );
    const { config, tokens } = await fullFlow(t, site, user, { scope: 'openid basic_info AGE_18' });
    const info = await client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck);
    expect(info).toMatchObject({ age_verified: false });
    expect(info).not.toHaveProperty('age_over_18');
    expect(info).not.toHaveProperty('verification_timestamp');
  });
});
