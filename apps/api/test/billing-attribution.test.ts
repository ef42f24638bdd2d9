import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, signUp, type TestApp } from './helpers';
import {
  Browser,
  createSite,
  pkce,
  registerPartner,
  relyingParty,
  uidFrom,
  verifiedUser,
  type CreatedSite,
} from './oidc-helpers';

/**
 * Issue 21 item 6, end to end: users who arrive from a partner's sign-in flow send the flow's interaction id with
 * their checks (X-Attestly-Interaction), so the checks count for that partner. Cheap failing checks must not use
 * up the partner's quota, and a partner over its quota must not cost its users their verification (429).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
/** A British address: a location check from it fails for anyone whose profile declares France. */
const BRITISH_IP = '81.2.69.160';

/** A cheap check that fails: a location check from a British address by someone who declared France. */
async function failingLocationCheck(user: { token: string; user: { id: string } }, interaction: string) {
  await t.db.models.User.update({ country: 'FR' }, { where: { id: user.user.id } });
  return t.request
    .post('/api/v1/users/verify/location')
    .set(auth(user.token))
    .set('X-Attestly-Interaction', interaction)
    .set('X-Forwarded-For', BRITISH_IP)
    .expect(201);
}

/** Signs the user in to the site's authorization request and stops at the consent screen: the interaction uid. */
async function consentScreen(site: CreatedSite, user: { email: string; password: string }): Promise<string> {
  const config = await relyingParty(t, site);
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: site.redirect_uris[0] as string,
    scope: 'openid basic_info AGE_18',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    state: client.randomState(),
  });
  const browser = new Browser();
  let location = url.href;
  for (let hop = 0; hop < 8 && !location.includes('/oauth/consent'); hop += 1) {
    if (location.includes('/oauth/login')) {
      const login = await browser.json(
        `${t.baseUrl}/api/v1/oauth/interactions/${uidFrom(location)}/login`,
        'POST',
        user,
      );
      location = String(login.body.redirect_to);
      continue;
    }
    const response = await browser.fetch(location);
    location = new URL(response.headers.get('location') as string, location).href;
  }
  return uidFrom(location);
}

async function usage(partnerToken: string) {
  const response = await t.request
    .get('/api/v1/partners/subscription/usage')
    .set(auth(partnerToken))
    .expect(200);
  return response.body.usage.current_month_verifications as number;
}

describe("checks sent through a partner's sign-in flow", () => {
  it('never use its quota when they fail, and are never refused when the quota is used up', async () => {
    const partner = await registerPartner(t);
    await t.services.billing.setPartnerPlan(partner.partner.id, 'free');
    const site = await createSite(t, partner.token);
    for (let i = 0; i < 99; i += 1) await t.services.billing.recordUsage(partner.partner.id);

    // Someone runs the partner's sign-in flow and sends failing checks with its interaction id.
    const attacker = await signUp(t);
    const uid = await consentScreen(site, attacker);
    for (let i = 0; i < 5; i += 1) {
      const answer = await failingLocationCheck(attacker, uid);
      expect(answer.body.status).toBe('rejected');
    }
    expect(await usage(partner.token)).toBe(99);
    const stats = await t.request.get('/api/v1/partners/stats').set(auth(partner.token)).expect(200);
    expect(stats.body).toMatchObject({ total_verifications: 5, failed_verifications: 5 });

    // With the quota used up, the partner's users still verify.
    await t.services.billing.recordUsage(partner.partner.id);
    expect(await usage(partner.token)).toBe(100);
    const user = await verifiedUser(t, { location_country: 'GB' });
    const userUid = await consentScreen(site, user);
    const made = await failingLocationCheck(user, userUid);
    const row = await t.db.models.Verification.findByPk(made.body.verification_id);
    expect(row).toMatchObject({ user_id: user.user.id, partner_id: partner.partner.id, status: 'rejected' });
    expect(await usage(partner.token)).toBe(100);
  });
});
