import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitKey } from '../src/modules/rate-limit/service';
import { LOCKED_OUT, LOCKOUT_MS, LOGIN_FAILURES_BY_EMAIL } from '../src/modules/users/service';
import { createTestApp, randomClientIp, signUp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** One client address per test, so the per-IP sign-in limit (30 a minute) stays out of the way. */
function client() {
  const ip = randomClientIp();
  return (email: string, password: string) =>
    t.request.post('/api/v1/users/login').set('X-Forwarded-For', ip).send({ email, password });
}

async function lockState(userId: string) {
  const user = await t.db.models.User.findByPk(userId);
  return { attempts: user?.login_attempts, lockedUntil: user?.locked_until?.toISOString() ?? null };
}

describe('login lockout', () => {
  it('locks the account on the fifth wrong password and refuses even the right one until the lock ends', async () => {
    const { email, password, user } = await signUp(t);
    const login = client();
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const response = await login(email, 'wrong password');
      expect(response.status).toBe(401);
      expect(await lockState(user.id)).toEqual({ attempts: attempt, lockedUntil: null });
    }
    const fifth = await login(email, 'wrong password');
    expect(fifth.status).toBe(429);
    expect(fifth.headers['retry-after']).toBe(String(LOCKOUT_MS / 1000));
    expect(fifth.body).toMatchObject({ code: 'rate_limited', detail: LOCKED_OUT });
    const lockedUntil = new Date(t.clock.now().getTime() + LOCKOUT_MS).toISOString();
    expect(await lockState(user.id)).toEqual({ attempts: 0, lockedUntil });

    t.clock.advance(60_000);
    const sessionsBefore = await t.db.models.Session.count({ where: { subject_id: user.id } });
    const right = await login(email, password);
    expect(right.status).toBe(429);
    expect(right.headers['retry-after']).toBe(String(LOCKOUT_MS / 1000 - 60));
    expect(await t.db.models.Session.count({ where: { subject_id: user.id } })).toBe(sessionsBefore);
    expect(await lockState(user.id)).toEqual({ attempts: 0, lockedUntil });

    t.clock.advance(LOCKOUT_MS - 60_000 + 1000);
    const after = await login(email, password);
    expect(after.status).toBe(200);
    expect(await lockState(user.id)).toEqual({ attempts: 0, lockedUntil: null });
  });

  it('counts from one again when a wrong password follows an expired lock', async () => {
    const { email, user } = await signUp(t);
    const login = client();
    for (let attempt = 1; attempt <= 5; attempt += 1) await login(email, 'wrong password');
    t.clock.advance(LOCKOUT_MS + 1000);
    expect((await login(email, 'wrong password')).status).toBe(401);
    expect(await lockState(user.id)).toEqual({ attempts: 1, lockedUntil: null });
  });

  it('forgets earlier failures after a successful sign-in', async () => {
    const { email, password, user } = await signUp(t);
    const login = client();
    for (let attempt = 1; attempt <= 4; attempt += 1) await login(email, 'wrong password');
    expect((await login(email, password)).status).toBe(200);
    expect(await lockState(user.id)).toEqual({ attempts: 0, lockedUntil: null });
    for (let attempt = 1; attempt <= 4; attempt += 1)
      expect((await login(email, 'wrong password')).status).toBe(401);
  });

  it('is lifted by a password reset', async () => {
    const { email, user } = await signUp(t);
    const login = client();
    for (let attempt = 1; attempt <= 5; attempt += 1) await login(email, 'wrong password');
    expect((await lockState(user.id)).lockedUntil).not.toBeNull();

    await t.request
      .post('/api/v1/users/forgot-password')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email })
      .expect(202);
    const mail = await t.smtp.waitFor(email, /Reset your Attestly password/);
    const token = decodeURIComponent(/reset-password\?token=(\S+)/.exec(mail.text)?.[1] ?? '');
    await t.request
      .post('/api/v1/users/reset-password')
      .send({ token, new_password: 'brand new password' })
      .expect(200);

    expect(await lockState(user.id)).toEqual({ attempts: 0, lockedUntil: null });
    expect((await login(email, 'brand new password')).status).toBe(200);
  });
});

describe('login with an unknown email', () => {
  it('answers every attempt exactly like a real account, including the 429 and its Retry-After', async () => {
    const { email: known } = await signUp(t);
    const unknown = `nobody-${randomBytes(5).toString('hex')}@example.com`;
    const loginKnown = client();
    const loginUnknown = client();
    const shape = (response: {
      status: number;
      body: Record<string, unknown>;
      headers: Record<string, string>;
    }) => ({
      status: response.status,
      detail: response.body.detail,
      code: response.body.code,
      retryAfter: response.headers['retry-after'],
    });
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      const a = shape(await loginKnown(known, 'wrong password'));
      const b = shape(await loginUnknown(unknown, 'wrong password'));
      expect(b).toEqual(a);
      expect(a.status).toBe(attempt < 5 ? 401 : 429);
      t.clock.advance(10_000);
    }
    // After the lock, both count afresh.
    t.clock.advance(LOCKOUT_MS);
    expect(shape(await loginUnknown(unknown, 'wrong password'))).toEqual(
      shape(await loginKnown(known, 'wrong password')),
    );
  });

  it('keeps counting across the hourly purge of old rate-limit windows, like a real account', async () => {
    const { email: known } = await signUp(t);
    const unknown = `purged-${randomBytes(5).toString('hex')}@example.com`;
    const [loginKnown, loginUnknown] = [client(), client()];
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await loginKnown(known, 'wrong password');
      await loginUnknown(unknown, 'wrong password');
    }
    t.clock.advance(2 * 3600_000);
    await t.services.limiter.purgeExpired(24 * 3600_000);
    expect((await loginKnown(known, 'wrong password')).status).toBe(401);
    expect((await loginUnknown(unknown, 'wrong password')).status).toBe(401);
    expect((await loginKnown(known, 'wrong password')).status).toBe(429);
    expect((await loginUnknown(unknown, 'wrong password')).status).toBe(429);
  });

  it('keeps its failure count in the rate_limits table, keyed by a hash of the address', async () => {
    const unknown = `counted-${randomBytes(5).toString('hex')}@example.com`;
    const login = client();
    for (let attempt = 1; attempt <= 3; attempt += 1) await login(unknown, 'wrong password');
    const [rows] = await t.db.sequelize.query(
      'SELECT key, count, window_start FROM rate_limits WHERE key = :key',
      {
        replacements: { key: rateLimitKey(LOGIN_FAILURES_BY_EMAIL.name, unknown) },
      },
    );
    expect(rows).toEqual([expect.objectContaining({ count: 3 })]);
    const [leaks] = await t.db.sequelize.query('SELECT key FROM rate_limits WHERE key LIKE :pattern', {
      replacements: { pattern: `%${unknown}%` },
    });
    expect(leaks).toEqual([]);
  });

  it('writes a login_failed audit entry without naming a user', async () => {
    const unknown = `audited-${randomBytes(5).toString('hex')}@example.com`;
    const before = await t.db.models.AuditLog.count({
      where: { event_type: 'user.login_failed', user_id: null },
    });
    await client()(unknown, 'wrong password');
    expect(
      await t.db.models.AuditLog.count({ where: { event_type: 'user.login_failed', user_id: null } }),
    ).toBe(before + 1);
  });
});
