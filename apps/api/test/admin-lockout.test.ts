import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_LOCK_MS } from '../src/modules/backoffice/accounts/service';
import { totpCode } from '../src/modules/backoffice/accounts/totp';
import { LOGIN_LOCKOUT } from '../src/modules/users/accounts/lockout';
import { createTestApp, randomClientIp, type TestApp } from './helpers';
import { ADMIN_PASSWORD, createAdmin, nextStep } from './admin-helpers';

/**
 * Issue 21 items 3 and 4: administrators get the users' per-account-and-address sign-in lockout (a stranger locks
 * out only their own address, and unknown addresses are answered exactly like administrators), and a lost race on
 * a one-time code is not a wrong guess.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** One client address per caller (a stranger, the administrator), unless one is given. */
function client(ip = randomClientIp()) {
  return (email: string, password: string) =>
    t.request.post('/api/v1/auth/admin/login').set('X-Forwarded-For', ip).send({ email, password });
}
const verify = (temp_token: string, code: string) =>
  t.request.post('/api/v1/auth/admin/verify-2fa').send({ temp_token, code });

type Answer = { status: number; body: Record<string, unknown>; headers: Record<string, string> };
const shape = (response: Answer) => ({
  status: response.status,
  detail: response.body.detail,
  code: response.body.code,
  retryAfter: response.headers['retry-after'],
});

async function lockedOutEvents(adminId: string) {
  return t.db.models.AuditLog.count({ where: { admin_user_id: adminId, event_type: 'admin_locked_out' } });
}

describe('administrator sign-in lockout per account and client address', () => {
  it('locks only the stranger’s address out of the account; the administrator still signs in', async () => {
    const admin = await createAdmin(t);
    const stranger = client();
    for (let attempt = 1; attempt <= 4; attempt += 1)
      expect((await stranger(admin.email, 'wrong password')).status).toBe(401);
    const fifth = await stranger(admin.email, 'wrong password');
    expect(fifth.status).toBe(429);
    expect(fifth.headers['retry-after']).toBe(String(LOGIN_LOCKOUT.pair.lockMs / 1000));
    // The stranger's address stays locked out, even with the right password.
    expect((await stranger(admin.email, ADMIN_PASSWORD)).status).toBe(429);
    // The administrator, from their own address, is not locked out.
    const own = await client()(admin.email, ADMIN_PASSWORD);
    expect(own.status).toBe(200);
    expect(own.body.requires_2fa).toBe(true);
    const row = await t.db.models.Admin.findByPk(admin.id);
    expect(row?.locked_until ?? null).toBeNull();
    // The lock is the stranger address's alone, and it ends: afterwards they count from one again.
    t.clock.advance(LOGIN_LOCKOUT.pair.lockMs + 1000);
    expect((await stranger(admin.email, 'wrong password')).status).toBe(401);
    expect(await lockedOutEvents(admin.id)).toBe(1);
  });

  it('answers an unknown address exactly like an administrator, including the 429 and its Retry-After', async () => {
    const admin = await createAdmin(t);
    const unknown = `nobody-${randomBytes(5).toString('hex')}@example.com`;
    const [loginKnown, loginUnknown] = [client(), client()];
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      const a = shape(await loginKnown(admin.email, 'wrong password'));
      const b = shape(await loginUnknown(unknown, 'wrong password'));
      expect(b).toEqual(a);
      expect(a.status).toBe(attempt < 5 ? 401 : 429);
      t.clock.advance(10_000);
    }
    t.clock.advance(LOGIN_LOCKOUT.pair.lockMs);
    const a = shape(await loginKnown(admin.email, 'wrong password'));
    expect(a.status).toBe(401);
    expect(shape(await loginUnknown(unknown, 'wrong password'))).toEqual(a);
  });

  it('checks exactly five of ten concurrent wrong passwords, for a real and an unknown address alike', async () => {
    const admin = await createAdmin(t);
    const unknown = `burst-${randomBytes(5).toString('hex')}@example.com`;
    const burst = (email: string) => {
      const login = client();
      return Promise.all(Array.from({ length: 10 }, () => login(email, 'wrong password')));
    };
    const [knownAnswers, unknownAnswers] = await Promise.all([burst(admin.email), burst(unknown)]);
    const tally = (answers: Answer[]) => answers.map((answer) => JSON.stringify(shape(answer))).sort();
    expect(knownAnswers.filter((answer) => answer.status === 401)).toHaveLength(4);
    expect(knownAnswers.filter((answer) => answer.status === 429)).toHaveLength(6);
    expect(tally(unknownAnswers)).toEqual(tally(knownAnswers));
  });

  it('counts the password step of TOTP setup against the same per-address lockout', async () => {
    const email = `setup-${randomBytes(4).toString('hex')}@example.com`;
    await t.services.admins.createAdmin({ email, password: ADMIN_PASSWORD });
    const ip = randomClientIp();
    const first = await client(ip)(email, ADMIN_PASSWORD).expect(200);
    const setup = (password: string) =>
      t.request
        .post('/api/v1/auth/admin/setup-2fa')
        .set('X-Forwarded-For', ip)
        .set('Authorization', `Bearer ${first.body.access_token}`)
        .send({ password });
    for (let attempt = 1; attempt <= 4; attempt += 1) expect((await setup('wrong')).status).toBe(422);
    expect((await setup('wrong')).status).toBe(429);
    expect((await setup(ADMIN_PASSWORD)).status).toBe(429);
    // Another address is not held back.
    expect((await client()(email, ADMIN_PASSWORD)).status).toBe(200);
  });
});

describe('the second factor’s own lockout', () => {
  it('signs in once and locks nothing when six requests race with one valid code', async () => {
    const admin = await createAdmin(t);
    nextStep(t);
    const login = await client()(admin.email, ADMIN_PASSWORD).expect(200);
    const code = totpCode(admin.secret, t.clock.now());
    const racers = await Promise.all(
      Array.from({ length: 6 }, () => verify(login.body.temp_token as string, code)),
    );
    expect(racers.filter((response) => response.status === 200)).toHaveLength(1);
    expect(racers.every((response) => [200, 401].includes(response.status))).toBe(true);
    const row = await t.db.models.Admin.findByPk(admin.id);
    expect(row?.locked_until ?? null).toBeNull();
    expect(row?.totp_failures).toBe(0);
    expect(await lockedOutEvents(admin.id)).toBe(0);
    expect(
      await t.db.models.AuditLog.count({
        where: { admin_user_id: admin.id, event_type: 'admin_2fa_failed' },
      }),
    ).toBe(0);
    // The administrator signs in again at once.
    nextStep(t);
    const again = await client()(admin.email, ADMIN_PASSWORD).expect(200);
    expect((await verify(again.body.temp_token, totpCode(admin.secret, t.clock.now()))).status).toBe(200);
  });

  it('enables TOTP once and locks nothing when six first codes race', async () => {
    const email = `race-${randomBytes(4).toString('hex')}@example.com`;
    const created = await t.services.admins.createAdmin({ email, password: ADMIN_PASSWORD });
    const first = await client()(email, ADMIN_PASSWORD).expect(200);
    const bearer = `Bearer ${first.body.access_token}`;
    const setup = await t.request
      .post('/api/v1/auth/admin/setup-2fa')
      .set('Authorization', bearer)
      .send({ password: ADMIN_PASSWORD })
      .expect(200);
    const code = totpCode(setup.body.secret, t.clock.now());
    const racers = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.request
          .post('/api/v1/auth/admin/enable-2fa')
          .set('Authorization', bearer)
          .send({ totp_code: code }),
      ),
    );
    expect(racers.filter((response) => response.status === 200)).toHaveLength(1);
    expect(racers.every((response) => response.status < 500)).toBe(true);
    const row = await t.db.models.Admin.findByPk(created.id);
    expect(row?.locked_until ?? null).toBeNull();
    expect(row?.totp_failures).toBe(0);
    expect(await lockedOutEvents(created.id)).toBe(0);
  });

  it('counts every wrong code that was checked, and only those, when wrong codes race', async () => {
    const admin = await createAdmin(t);
    const login = await client()(admin.email, ADMIN_PASSWORD).expect(200);
    const racers = await Promise.all(
      Array.from({ length: 12 }, () => verify(login.body.temp_token as string, '999999')),
    );
    // One check per pending sign-in at a time: the others are told to sign in again (or find the account locked).
    expect(racers.every((response) => [401, 429].includes(response.status))).toBe(true);
    const wrong = racers.filter((response) => response.body.code === 'auth.invalid_2fa_code').length;
    const failures = (await t.db.models.Admin.findByPk(admin.id))?.totp_failures ?? -1;
    const audited = await t.db.models.AuditLog.count({
      where: { admin_user_id: admin.id, event_type: 'admin_2fa_failed' },
    });
    expect(audited).toBeGreaterThanOrEqual(1);
    expect(audited).toBeLessThanOrEqual(5);
    expect(failures).toBe(audited);
    expect(wrong).toBe(audited < 5 ? audited : 4);
    // The pending sign-in survives a wrong code: more wrong codes, one at a time, lock the account at the fifth.
    for (let attempt = audited + 1; attempt < 5; attempt += 1)
      expect((await verify(login.body.temp_token, '999999')).body.code).toBe('auth.invalid_2fa_code');
    if (audited < 5) {
      const fifth = await verify(login.body.temp_token, '999999');
      expect(fifth.status).toBe(429);
      expect(fifth.headers['retry-after']).toBe(String(ADMIN_LOCK_MS / 1000));
    }
    expect(await lockedOutEvents(admin.id)).toBe(1);
    expect((await client()(admin.email, ADMIN_PASSWORD)).status).toBe(429);
  });

  it('tells only someone with the password that the second factor is locked', async () => {
    const admin = await createAdmin(t);
    const login = await client()(admin.email, ADMIN_PASSWORD).expect(200);
    for (let attempt = 1; attempt <= 5; attempt += 1) await verify(login.body.temp_token, '000000');
    // A stranger's wrong password is an ordinary 401, as for any address.
    const stranger = await client()(admin.email, 'wrong password');
    expect(stranger.status).toBe(401);
    expect(stranger.body.detail).toBe('Invalid email or password');
    // The right password learns of the lock, which ends on its own.
    const right = await client()(admin.email, ADMIN_PASSWORD);
    expect(right.status).toBe(429);
    t.clock.advance(ADMIN_LOCK_MS + 1000);
    nextStep(t);
    const after = await client()(admin.email, ADMIN_PASSWORD).expect(200);
    expect((await verify(after.body.temp_token, totpCode(admin.secret, t.clock.now()))).status).toBe(200);
  });
});
