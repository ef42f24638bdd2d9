import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { createSite, fullFlow, registerPartner, verifiedUser } from './oidc-helpers';

/**
 * POST /partners/verify-age (the SDK's verifyAge; spec 01 §1 quick start): a yes/no about a user of the partner's
 * sites, only within what that user granted, by the pairwise subject the sites received.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

async function apiKey(token: string, environment: 'sandbox' | 'live') {
  const response = await t.request
    .post('/api/v1/partners/api-keys')
    .set('Authorization', `Bearer ${token}`)
    .send({ environment })
    .expect(201);
  return response.body.api_key as string;
}

const ask = (key: string, body: Record<string, unknown>) =>
  t.request.post('/api/v1/partners/verify-age').set('X-API-Key', key).send(body);

describe('POST /partners/verify-age', () => {
  it('answers yes for a proven, granted age, and where to prove it otherwise', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const key = await apiKey(partner.token, 'live');
    const adult = await verifiedUser(t, { proven_min_age: 18 });
    const { tokens } = await fullFlow(t, site, adult, { scope: 'openid basic_info AGE_21' });
    const sub = tokens.claims()?.sub as string;

    const yes = await ask(key, { user_id: sub }).expect(200);
    expect(yes.body).toEqual({
      verified: true,
      user_id: sub,
      age_threshold: 18,
      method: null,
      verification_timestamp: `${t.clock.now().toISOString().slice(0, 10)}T00:00:00Z`,
      verify_url: null,
    });
    // Granted AGE_21, proven only 18: not verified, and where to go.
    const no = await ask(key, { user_id: sub, age_threshold: 21 }).expect(200);
    expect(no.body).toMatchObject({ verified: false, verify_url: `${t.config.publicUrl}/verification` });

    // Once the proof lapses it is no longer an answer.
    await t.db.models.User.update(
      { age_verified_until: new Date(t.clock.now().getTime() - 1000) },
      { where: { id: adult.user.id } },
    );
    expect((await ask(key, { user_id: sub }).expect(200)).body.verified).toBe(false);
  });

  it('answers for a method only when that method proved it', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const key = await apiKey(partner.token, 'live');
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const { tokens } = await fullFlow(t, site, user);
    const sub = tokens.claims()?.sub as string;
    const byCard = () => ask(key, { user_id: sub, method: 'credit_card' }).expect(200);
    expect((await byCard()).body).toMatchObject({
      verified: false,
      method: 'credit_card',
      verify_url: expect.stringMatching(/\/verification\?method=credit_card$/),
    });
    const now = t.clock.now();
    await t.db.models.Verification.create({
      user_id: user.user.id,
      verification_type: 'age',
      verification_method: 'credit_card',
      status: 'approved',
      confidence_score: 0.9,
      age_threshold: 18,
      message: 'approved',
      result_details: { proves: { minAge: 18 } },
      expires_at: new Date(now.getTime() + 86400_000),
    });
    expect((await byCard()).body).toMatchObject({ verified: true, method: 'credit_card', verify_url: null });
    expect((await ask(key, { user_id: sub, method: 'document' }).expect(200)).body.verified).toBe(false);
  });

  it("refuses what the user did not grant, other partners' users, and bad input", async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const key = await apiKey(partner.token, 'live');
    const user = await verifiedUser(t, { proven_min_age: 21 });
    const { tokens } = await fullFlow(t, site, user);
    const sub = tokens.claims()?.sub as string;
    const over21 = await ask(key, { user_id: sub, age_threshold: 21 }).expect(403);
    expect(over21.body).toMatchObject({ code: 'partner.scope_not_granted' });
    expect(over21.body.detail).toMatch(/AGE_21/);

    // The same user at another partner: unknown there (and the pairwise subject differs anyway).
    const other = await registerPartner(t);
    const otherKey = await apiKey(other.token, 'live');
    expect((await ask(otherKey, { user_id: sub }).expect(404)).body.code).toBe('partner.user_not_connected');
    // A sandbox key sees only sandbox sites' users.
    const sandboxKey = await apiKey(partner.token, 'sandbox');
    await ask(sandboxKey, { user_id: sub }).expect(404);

    // A revoked grant ends the answers.
    const grants = await t.db.models.OAuthAuthorization.findAll({ where: { user_id: user.user.id } });
    await t.db.models.OAuthAuthorization.update(
      { revoked_at: t.clock.now() },
      { where: { id: grants.map((grant) => grant.id) } },
    );
    await ask(key, { user_id: sub }).expect(404);

    const invalid = await ask(key, { age_threshold: 19 }).expect(422);
    expect(invalid.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'user_id', message: 'user_id is required' },
        { path: 'age_threshold', message: 'age_threshold must be one of 12, 16, 18, 21' },
      ]),
    );
    expect((await ask(key, { user_id: sub, method: 'palm_reading' }).expect(422)).body.detail).toMatch(
      /method must be one of credit_card, facial_recognition, document/,
    );
    await t.request.post('/api/v1/partners/verify-age').send({ user_id: sub }).expect(401);
  });
});
