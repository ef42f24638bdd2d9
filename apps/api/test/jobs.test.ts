import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintenanceJobs } from '../src/jobs';
import { rateLimitKey } from '../src/modules/shared/rate-limit/service';
import { createTestApp, signUp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const job = (name: string) => {
  const found = maintenanceJobs(t.services).find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no job ${name}`);
  return found;
};

describe('maintenance jobs', () => {
  it('purge expired sessions and keep live ones', async () => {
    const { token } = await signUp(t);
    const { Session } = t.db.models;
    const before = await Session.count();
    t.clock.advance(13 * 3600_000);
    const fresh = await signUp(t);
    await job('purge-expired-sessions').run();
    // The first session (12 h lifetime) is gone, the one made after the clock moved is not.
    expect(await Session.count()).toBe(before);
    await t.request.get('/api/v1/users/profile').set('Authorization', `Bearer ${token}`).expect(401);
    await t.request.get('/api/v1/users/profile').set('Authorization', `Bearer ${fresh.token}`).expect(200);
  });

  it('purge used and expired one-time tokens but keep pending ones', async () => {
    const { OneTimeToken } = t.db.models;
    const pending = await t.services.tokens.issue('password_reset', 'subject-a', { ttlMs: 3600_000 });
    const used = await t.services.tokens.issue('password_reset', 'subject-b', { ttlMs: 3600_000 });
    expect(await t.services.tokens.consume('password_reset', used)).not.toBeNull();
    await t.services.tokens.issue('password_reset', 'subject-c', { ttlMs: 1000 });
    t.clock.advance(5000);
    await job('purge-one-time-tokens').run();
    const left = await OneTimeToken.findAll({ where: { purpose: 'password_reset' } });
    expect(left.map((row) => row.subject_id)).toEqual(['subject-a']);
    expect(await t.services.tokens.consume('password_reset', pending)).not.toBeNull();
  });

  it('purge rate-limit windows older than a day', async () => {
    const rule = { name: 'test-rule', limit: 5, windowMs: 60_000 };
    await t.services.limiter.hit(rule, 'old');
    t.clock.advance(25 * 3600_000);
    await t.services.limiter.hit(rule, 'new');
    await job('purge-rate-limit-windows').run();
    const [rows] = await t.db.sequelize.query("SELECT key FROM rate_limits WHERE key LIKE 'test-rule:%'");
    expect((rows as Array<{ key: string }>).map((row) => row.key)).toEqual([
      rateLimitKey('test-rule', 'new'),
    ]);
  });

  it('purge OIDC payloads that expired over an hour ago and keep live, recent and unexpiring ones', async () => {
    const { OidcPayload } = t.db.models;
    // The provider stamps expiry with the real clock (oidc/payload-rows.ts providerNow), so these rows do too.
    const at = (offsetMs: number) => new Date(Date.now() + offsetMs);
    const row = (id: string, expires_at: Date | null) => ({
      model: 'AccessToken',
      id,
      payload: '{}',
      grant_id: null,
      user_code: null,
      uid: null,
      expires_at,
      consumed_at: null,
    });
    await OidcPayload.bulkCreate([
      row('long-expired', at(-2 * 3600_000)),
      row('just-expired', at(-60_000)),
      row('live', at(3600_000)),
      row('no-expiry', null),
    ]);
    await job('purge-oidc-payloads').run();
    const left = await OidcPayload.findAll({ where: { model: 'AccessToken' }, order: [['id', 'ASC']] });
    expect(left.map((payload) => payload.id)).toEqual(['just-expired', 'live', 'no-expiry']);
  });
});
