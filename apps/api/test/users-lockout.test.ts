import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/lib/crypto';
import { LOGIN_LOCKOUT } from '../src/modules/users/accounts/lockout';
import { LOCKED_OUT, LOCKOUT_MS } from '../src/modules/users/accounts/service';
import { createTestApp, randomClientIp, signUp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** One client address per caller (a stranger, the owner), unless one is given. */
function client(ip = randomClientIp()) {
  return (email: string, password: string) =>
    t.request.post('/api/v1/users/login').set('X-Forwarded-For', ip).send({ email, password });
}

async function lockState(userId: string) {
  const user = await t.db.models.User.findByPk(userId);
  return { attempts: user?.login_attempts, lockedUntil: user?.locked_until?.toISOString() ?? null };
}

type Answer = { status: number; body: Record<string, unknown>; headers: Record<string, string> };
const shape = (response: Answer) => ({
  status: response.status,
  detail: response.body.detail,
  code: response.body.code,
  retryAfter: response.headers['retry-after'],
});

describe('login lockout per account and client address', () => {
  it('locks the stranger’s address out of the account on the fifth wrong password, not the owner', async () => {
    const { email, password, user } = await signUp(t);
    const stranger = client();
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const response = await stranger(email, 'wrong password');
      expect(response.status).toBe(401);
      expect(await lockState(user.id)).toEqual({ attempts: attempt, lockedUntil: null });
    }
    const fifth = await stranger(email, 'wrong password');
    expect(fifth.status).toBe(429);
    expect(fifth.headers['retry-after']).toBe(String(LOCKOUT_MS / 1000));
    expect(fifth.body).toMatchObject({ code: 'rate_limited', detail: LOCKED_OUT });
    // No account-wide lock: the owner, from their own address, signs in.
    expect((await lockState(user.id)).lockedUntil).toBeNull();
    expect((await client()(email, password)).status).toBe(200);

    // The stranger's address stays locked, even with the right password, until the lock ends.
    t.clock.advance(60_000);
    const right = await stranger(email, password);
    expect(right.status).toBe(429);
    expect(right.headers['retry-after']).toBe(String(LOCKOUT_MS / 1000 - 60));
    t.clock.advance(LOCKOUT_MS - 60_000 + 1000);
    expect((await stranger(email, password)).status).toBe(200);
  });

  it('counts from one again when a wrong password follows an expired lock', async () => {
    const { email } = await signUp(t);
    const login = client();
    for (let attempt = 1; attempt <= 5; attempt += 1) await login(email, 'wrong password');
    t.clock.advance(LOCKOUT_MS + 1000);
    for (let attempt = 1; attempt <= 4; attempt += 1)
      expect((await login(email, 'wrong password')).status).toBe(401);
    expect((await login(email, 'wrong password')).status).toBe(429);
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
    const { email } = await signUp(t);
    const login = client();
    for (let attempt = 1; attempt <= 5; attempt += 1) await login(email, 'wrong password');
    expect((await login(email, 'correct horse battery')).status).toBe(429);

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

    expect((await login(email, 'brand new password')).status).toBe(200);
  });

  it('locks an address that fails against many accounts (password spraying)', async () => {
    const sprayer = client();
    const limit = LOGIN_LOCKOUT.address.limit;
    for (let attempt = 1; attempt < limit; attempt += 1) {
      const target = `spray-${attempt}-${randomBytes(3).toString('hex')}@example.com`;
      expect((await sprayer(target, 'Summer2026!')).status).toBe(401);
      // Slow enough for the per-address rate limit (30 sign-in attempts a minute), which answers bursts first.
      if (attempt % 25 === 0) t.clock.advance(60_000);
    }
    const last = await sprayer(`spray-last-${randomBytes(3).toString('hex')}@example.com`, 'Summer2026!');
    expect(last.status).toBe(429);
    // Even a real account with its right password is refused from that address for the lock's length.
    const { email, password } = await signUp(t);
    expect((await sprayer(email, password)).status).toBe(429);
    expect((await client()(email, password)).status).toBe(200);
    t.clock.advance(LOGIN_LOCKOUT.address.lockMs + 1000);
  });

  it('slows an account down from many addresses and locks it only at a much higher count', async () => {
    const { email, password, user } = await signUp(t);
    const { delayFrom, limit, maxDelayMs, lockMs } = LOGIN_LOCKOUT.account;
    // A distributed guesser: every attempt from a new address, so no pair or address lock is reached.
    for (let attempt = 1; attempt < delayFrom; attempt += 1)
      expect((await client()(email, 'wrong password')).status).toBe(401);
    expect((await client()(email, 'wrong password')).status).toBe(401);
    // From now on each failure makes the account wait: 1 s, then 2 s…
    const waiting = await client()(email, password);
    expect(waiting.status).toBe(429);
    expect(waiting.headers['retry-after']).toBe('1');
    t.clock.advance(1000);
    expect((await client()(email, 'wrong password')).status).toBe(401);
    expect((await client()(email, password)).headers['retry-after']).toBe('2');
    t.clock.advance(2000);
    // The owner, after the wait, signs in and the account's count starts again.
    expect((await client()(email, password)).status).toBe(200);
    expect(await lockState(user.id)).toEqual({ attempts: 0, lockedUntil: null });

    // Reaching the account-wide lock takes `limit` failures, each after its (capped) wait.
    let last: Answer | null = null;
    for (let attempt = 1; attempt <= limit; attempt += 1) {
      last = await client()(email, 'wrong password');
      expect(last.status, `attempt ${attempt}`).toBe(attempt < limit ? 401 : 429);
      if (attempt < limit) t.clock.advance(maxDelayMs);
    }
    expect(last?.headers['retry-after']).toBe(String(lockMs / 1000));
    expect((await lockState(user.id)).lockedUntil).not.toBeNull();
    expect((await client()(email, password)).status).toBe(429);
    t.clock.advance(lockMs + 1000);
    expect((await client()(email, password)).status).toBe(200);
  });
});

describe('login lockout under concurrency', () => {
  it('checks exactly five of ten concurrent wrong passwords and answers a real and an unknown account alike', async () => {
    const { email: known, user } = await signUp(t);
    const unknown = `burst-${randomBytes(5).toString('hex')}@example.com`;
    const [knownFrom, unknownFrom] = [randomClientIp(), randomClientIp()];
    const burst = (email: string, ip: string) =>
      Promise.all(Array.from({ length: 10 }, () => client(ip)(email, 'wrong password')));
    const [knownAnswers, unknownAnswers] = await Promise.all([
      burst(known, knownFrom),
      burst(unknown, unknownFrom),
    ]);
    const tally = (answers: Answer[]) =>
      answers
        .map(shape)
        .map((each) => JSON.stringify(each))
        .sort();
    expect(knownAnswers.filter((answer) => answer.status === 401)).toHaveLength(LOGIN_LOCKOUT.pair.limit - 1);
    expect(knownAnswers.filter((answer) => answer.status === 429)).toHaveLength(
      10 - (LOGIN_LOCKOUT.pair.limit - 1),
    );
    expect(tally(unknownAnswers)).toEqual(tally(knownAnswers));
    // The right password from that address is now refused too: the lock holds.
    expect((await client(knownFrom)(known, 'correct horse battery')).status).toBe(429);
    const audited = await t.db.models.AuditLog.count({
      where: { event_type: 'user.login_failed', user_id: user.id },
    });
    expect(audited).toBe(LOGIN_LOCKOUT.pair.limit);
  });
});

describe('login with an unknown email', () => {
  it('answers every attempt exactly like a real account, including the 429 and its Retry-After', async () => {
    const { email: known } = await signUp(t);
    const unknown = `nobody-${randomBytes(5).toString('hex')}@example.com`;
    const loginKnown = client();
    const loginUnknown = client();
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

  it('keeps counting across the hourly purge of idle counters, like a real account', async () => {
    const { email: known } = await signUp(t);
    const unknown = `purged-${randomBytes(5).toString('hex')}@example.com`;
    const [loginKnown, loginUnknown] = [client(), client()];
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await loginKnown(known, 'wrong password');
      await loginUnknown(unknown, 'wrong password');
    }
    t.clock.advance(10 * 60_000);
    await t.services.users.purgeLoginFailures();
    expect((await loginKnown(known, 'wrong password')).status).toBe(401);
    expect((await loginUnknown(unknown, 'wrong password')).status).toBe(401);
    expect((await loginKnown(known, 'wrong password')).status).toBe(429);
    expect((await loginUnknown(unknown, 'wrong password')).status).toBe(429);
  });

  it('keeps its counters in login_failures under hashed keys only', async () => {
    const unknown = `counted-${randomBytes(5).toString('hex')}@example.com`;
    const login = client();
    for (let attempt = 1; attempt <= 3; attempt += 1) await login(unknown, 'wrong password');
    const [rows] = await t.db.sequelize.query('SELECT key, failures FROM login_failures WHERE key = :key', {
      replacements: { key: sha256(`user:account:${unknown}`) },
    });
    expect(rows).toEqual([expect.objectContaining({ failures: 3 })]);
    const [leaks] = await t.db.sequelize.query('SELECT key FROM login_failures WHERE key LIKE :pattern', {
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
