import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '@attestly/contracts';
import { createTestApp, signUp, type TestApp } from './helpers';
import { registerPartner } from './oidc-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function newKey(token: string, environment: 'sandbox' | 'live') {
  const response = await t.request
    .post('/api/v1/partners/api-keys')
    .set(auth(token))
    .send({ environment })
    .expect(201);
  return response.body as { id: string; api_key: string; prefix: string; environment: string };
}

describe('partner API keys', () => {
  it('creates sandbox and live keys shown once, stored only as hashes, listed without the key', async () => {
    const partner = await registerPartner(t);
    const sandbox = await newKey(partner.token, 'sandbox');
    const live = await newKey(partner.token, 'live');
    expect(sandbox.api_key).toMatch(/^atk_test_[A-Za-z0-9_-]{43}$/);
    expect(live.api_key).toMatch(/^atk_live_[A-Za-z0-9_-]{43}$/);
    expect(sandbox.api_key.startsWith(sandbox.prefix)).toBe(true);
    const list = await t.request.get('/api/v1/partners/api-keys').set(auth(partner.token)).expect(200);
    expect(list.body.total_count).toBe(2);
    expect(JSON.stringify(list.body)).not.toContain(sandbox.api_key);
    expect(JSON.stringify(list.body)).not.toContain(live.api_key);
    expect(list.body.api_keys[0]).toEqual({
      id: expect.any(String),
      environment: expect.stringMatching(/^(sandbox|live)$/),
      prefix: expect.stringMatching(/^atk_(test|live)_/),
      created_at: expect.any(String),
      last_used_at: null,
    });
    const [rows] = await t.db.sequelize.query('SELECT key_hash FROM api_keys');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(sandbox.api_key.slice(9));
    expect(stored).not.toContain(live.api_key.slice(9));
    const [audit] = await t.db.sequelize.query(
      `SELECT event_type FROM audit_logs WHERE partner_id = '${partner.partner.id}' AND event_type LIKE 'partner.api_key%'`,
    );
    expect(audit).toHaveLength(2);
  });

  it('authenticates server-to-server calls with X-API-Key and records when the key was last used', async () => {
    const partner = await registerPartner(t);
    const key = await newKey(partner.token, 'live');
    const answer = await t.request
      .post('/api/v1/partners/validate-token')
      .set('X-API-Key', key.api_key)
      .send({ token: 'no-such-token' })
      .expect(200);
    expect(answer.body).toEqual({ active: false });
    const list = await t.request.get('/api/v1/partners/api-keys').set(auth(partner.token)).expect(200);
    expect(list.body.api_keys[0].last_used_at).toBe(t.clock.now().toISOString());
    expect(await t.services.apiKeys.authenticate(key.api_key)).toEqual({
      partnerId: partner.partner.id,
      keyId: key.id,
      environment: 'live',
    });
  });

  it('refuses wrong, malformed and revoked keys with the error envelope', async () => {
    const partner = await registerPartner(t);
    const key = await newKey(partner.token, 'sandbox');
    for (const bad of [
      `${key.api_key}x`,
      'atk_live_nope',
      'not-a-key',
      key.api_key.replace('test', 'live'),
    ]) {
      const response = await t.request
        .post('/api/v1/partners/validate-token')
        .set('X-API-Key', bad)
        .send({ token: 'x' })
        .expect(401);
      expect(response.body).toMatchObject({
        code: 'auth.invalid_api_key',
        detail: 'Invalid or revoked API key',
      });
      expect(response.body.request_id).toEqual(expect.any(String));
    }
    await t.request.delete(`/api/v1/partners/api-keys/${key.id}`).set(auth(partner.token)).expect(204);
    await t.request
      .post('/api/v1/partners/validate-token')
      .set('X-API-Key', key.api_key)
      .send({ token: 'x' })
      .expect(401);
    await t.request.delete(`/api/v1/partners/api-keys/${key.id}`).set(auth(partner.token)).expect(404);
    const list = await t.request.get('/api/v1/partners/api-keys').set(auth(partner.token)).expect(200);
    expect(list.body.total_count).toBe(0);
  });

  it('regenerates a key: same environment, the old key stops working at once', async () => {
    const partner = await registerPartner(t);
    const key = await newKey(partner.token, 'live');
    const fresh = await t.request
      .post(`/api/v1/partners/api-keys/${key.id}/regenerate`)
      .set(auth(partner.token))
      .expect(200);
    expect(fresh.body.api_key).toMatch(/^atk_live_/);
    expect(fresh.body.id).not.toBe(key.id);
    expect(await t.services.apiKeys.authenticate(key.api_key)).toBeNull();
    expect(await t.services.apiKeys.authenticate(fresh.body.api_key)).toMatchObject({ environment: 'live' });
  });

  it('regenerates a key once when two requests race', async () => {
    const partner = await registerPartner(t);
    const key = await newKey(partner.token, 'sandbox');
    const answers = await Promise.all(
      [0, 1, 2].map(() =>
        t.request.post(`/api/v1/partners/api-keys/${key.id}/regenerate`).set(auth(partner.token)),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404, 404]);
    const list = await t.request.get('/api/v1/partners/api-keys').set(auth(partner.token)).expect(200);
    expect(list.body.total_count).toBe(1);
  });

  it("keeps partners apart: no one manages or sees another partner's keys", async () => {
    const owner = await registerPartner(t);
    const other = await registerPartner(t);
    const key = await newKey(owner.token, 'live');
    await t.request.delete(`/api/v1/partners/api-keys/${key.id}`).set(auth(other.token)).expect(404);
    await t.request.post(`/api/v1/partners/api-keys/${key.id}/regenerate`).set(auth(other.token)).expect(404);
    const list = await t.request.get('/api/v1/partners/api-keys').set(auth(other.token)).expect(200);
    expect(list.body.total_count).toBe(0);
    expect(await t.services.apiKeys.authenticate(key.api_key)).not.toBeNull();
  });

  it('accepts only a partner session for key management: not a user token, not an API key, not nothing', async () => {
    const partner = await registerPartner(t);
    const key = await newKey(partner.token, 'live');
    const user = await signUp(t);
    await t.request.get('/api/v1/partners/api-keys').set(auth(user.token)).expect(401);
    await t.request
      .post('/api/v1/partners/api-keys')
      .set(auth(user.token))
      .send({ environment: 'live' })
      .expect(401);
    await t.request.get('/api/v1/partners/api-keys').expect(401);
    const byKey = await t.request
      .post('/api/v1/partners/api-keys')
      .set('X-API-Key', key.api_key)
      .send({ environment: 'live' })
      .expect(401);
    expect(byKey.body.code).toBe('auth.api_key_not_accepted');
  });

  it('rejects bad input without storing anything', async () => {
    const partner = await registerPartner(t);
    const before = await t.db.models.ApiKey.count();
    const wrong = await t.request
      .post('/api/v1/partners/api-keys')
      .set(auth(partner.token))
      .send({ environment: 'production' })
      .expect(422);
    expect(wrong.body.errors[0]).toMatchObject({
      path: 'environment',
      message: 'environment must be sandbox or live',
    });
    await t.request
      .post('/api/v1/partners/api-keys/not-a-uuid/regenerate')
      .set(auth(partner.token))
      .expect(422);
    expect(await t.db.models.ApiKey.count()).toBe(before);
  });

  it('stops authenticating the keys of a suspended partner and refuses its portal session', async () => {
    const partner = await registerPartner(t);
    const key = await newKey(partner.token, 'live');
    await t.db.models.Partner.update({ status: 'suspended' }, { where: { id: partner.partner.id } });
    await t.request
      .post('/api/v1/partners/validate-token')
      .set('X-API-Key', key.api_key)
      .send({ token: 'x' })
      .expect(401);
    const portal = await t.request.get('/api/v1/partners/api-keys').set(auth(partner.token)).expect(403);
    expect(portal.body.detail).toBe('This partner account has been suspended. Please contact support.');
  });

  it("holds server-to-server calls to the plan's per-minute API limit, and the portal is not counted", async () => {
    const partner = await registerPartner(t);
    await t.db.models.Partner.update({ plan: 'free' }, { where: { id: partner.partner.id } });
    const key = await newKey(partner.token, 'live');
    const limit = PLANS.find((plan) => plan.id === 'free')!.rate_limit_per_minute;
    for (let call = 0; call < limit; call += 1) {
      await t.request.get('/api/v1/partners/stats').set('X-API-Key', key.api_key).expect(200);
    }
    const limited = await t.request.get('/api/v1/partners/stats').set('X-API-Key', key.api_key).expect(429);
    expect(limited.body.detail).toMatch(
      /API rate limit of the Free plan reached \(\d+ requests per minute\)/,
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The partner's own portal session is not an API call.
    await t.request.get('/api/v1/partners/stats').set(auth(partner.token)).expect(200);
    t.clock.advance(60_000);
    await t.request.get('/api/v1/partners/stats').set('X-API-Key', key.api_key).expect(200);
  });
});
