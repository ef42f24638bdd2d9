import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitKey } from '../src/modules/shared/rate-limit/service';
import { FORGOT_PASSWORD_BY_EMAIL, RESET_TOKEN_TTL_MS } from '../src/modules/users/accounts/service';
import { createTestApp, randomClientIp, rowCounts, signUp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const RESET_SUBJECT = /Reset your Attestly password/;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function forgot(email: unknown, ip = randomClientIp()) {
  return t.request.post('/api/v1/users/forgot-password').set('X-Forwarded-For', ip).send({ email });
}

function reset(body: Record<string, unknown>) {
  return t.request.post('/api/v1/users/reset-password').set('X-Forwarded-For', randomClientIp()).send(body);
}

function login(email: string, password: string) {
  return t.request
    .post('/api/v1/users/login')
    .set('X-Forwarded-For', randomClientIp())
    .send({ email, password });
}

/** Asks for a reset link and reads its token from the mail the SMTP server received. */
async function resetToken(email: string): Promise<string> {
  const already = t.smtp.messages.length;
  await forgot(email).expect(202);
  const deadline = Date.now() + 5000;
  for (;;) {
    const mail = t.smtp.messages
      .slice(already)
      .find((item) => item.to.includes(email) && RESET_SUBJECT.test(item.subject));
    if (mail) return decodeURIComponent(/reset-password\?token=(\S+)/.exec(mail.text)?.[1] ?? '');
    if (Date.now() > deadline) throw new Error(`no reset mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('POST /users/forgot-password', () => {
  it('answers known and unknown addresses alike and mails only the account owner', async () => {
    const { email } = await signUp(t);
    const unknown = `nobody-${randomBytes(5).toString('hex')}@example.com`;
    const before = await rowCounts(t, ['users', 'sessions']);
    const forUnknown = await forgot(unknown).expect(202);
    const forKnown = await forgot(email).expect(202);
    expect(forKnown.body).toEqual(forUnknown.body);
    expect(forKnown.body).toEqual({
      message: 'If an account exists for that email, we have sent a link to reset the password.',
    });

    const mail = await t.smtp.waitFor(email, RESET_SUBJECT);
    expect(mail.text).toMatch(/http:\/\/attestly\.test\/reset-password\?token=[\w%-]{43,}/);
    expect(t.smtp.messages.some((item) => item.to.includes(unknown))).toBe(false);
    expect(await rowCounts(t, ['users', 'sessions'])).toEqual(before);
  });

  it('stores the reset token only as a keyed hash', async () => {
    const { email, user } = await signUp(t);
    const token = await resetToken(email);
    const rows = await t.db.models.OneTimeToken.findAll({
      where: { subject_id: user.id, purpose: 'password_reset' },
      raw: true,
    });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]?.target).toBe(email);
  });

  it.each([
    [{}, 'Email is required'],
    [{ email: '' }, 'Email is required'],
    [{ email: 'not-an-email' }, 'Invalid email'],
    [{ email: 12 }, 'Must be text'],
  ])('refuses %j with 422', async (body, message) => {
    const response = await t.request
      .post('/api/v1/users/forgot-password')
      .set('X-Forwarded-For', randomClientIp())
      .send(body)
      .expect(422);
    expect(response.body).toMatchObject({
      code: 'validation.failed',
      detail: message,
      errors: [{ path: 'email', message }],
    });
  });

  it('limits requests per address to three an hour, with the same 429 for unknown addresses', async () => {
    const { email } = await signUp(t);
    const unknown = `nobody-${randomBytes(5).toString('hex')}@example.com`;
    for (let request = 1; request <= 3; request += 1) {
      await forgot(email).expect(202);
      await forgot(unknown).expect(202);
    }
    const known = await forgot(email).expect(429);
    const other = await forgot(unknown).expect(429);
    expect(Number(known.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(known.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(other.headers['retry-after']).toBe(known.headers['retry-after']);
    expect(other.body.detail).toBe(known.body.detail);
    const [rows] = await t.db.sequelize.query('SELECT count FROM rate_limits WHERE key = :key', {
      replacements: { key: rateLimitKey(FORGOT_PASSWORD_BY_EMAIL.name, email) },
    });
    expect(rows).toEqual([{ count: 4 }]);
    t.clock.advance(3600_000);
    await forgot(email).expect(202);
  });

  it('limits requests per client address to ten in fifteen minutes', async () => {
    const ip = randomClientIp();
    for (let request = 1; request <= 10; request += 1) {
      await forgot(`spray-${request}-${randomBytes(3).toString('hex')}@example.com`, ip).expect(202);
    }
    const limited = await forgot('one-more@example.com', ip).expect(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    await forgot('one-more@example.com', randomClientIp()).expect(202);
  });
});

describe('POST /users/reset-password', () => {
  it('sets the new password, signs out every session and audits it', async () => {
    const { email, password, token: session, user } = await signUp(t);
    const link = await resetToken(email);
    const response = await reset({ token: link, new_password: 'a much better password' }).expect(200);
    expect(response.body).toEqual({ message: 'Your password has been reset. Please sign in.' });

    await t.request.get('/api/v1/users/profile').set(bearer(session)).expect(401);
    expect(await t.db.models.Session.count({ where: { subject_id: user.id } })).toBe(0);
    await login(email, password).expect(401);
    await login(email, 'a much better password').expect(200);
    const row = await t.db.models.OneTimeToken.findOne({
      where: { subject_id: user.id, purpose: 'password_reset' },
    });
    expect(row?.used_at).not.toBeNull();
    expect(
      await t.db.models.AuditLog.count({ where: { user_id: user.id, event_type: 'user.password_reset' } }),
    ).toBe(1);
    // Opening the link proves the address too.
    expect((await t.db.models.User.findByPk(user.id))?.email_verified_at).not.toBeNull();
  });

  it('accepts a link only once', async () => {
    const { email, user } = await signUp(t);
    const link = await resetToken(email);
    await reset({ token: link, new_password: 'first new password' }).expect(200);
    const hash = (await t.db.models.User.findByPk(user.id))?.password_hash;
    const again = await reset({ token: link, new_password: 'second new password' }).expect(400);
    expect(again.body).toMatchObject({
      code: 'users.invalid_token',
      detail: 'This password reset link is invalid or has expired',
    });
    expect((await t.db.models.User.findByPk(user.id))?.password_hash).toBe(hash);
    await login(email, 'first new password').expect(200);
  });

  it('refuses a link older than one hour and keeps the old password', async () => {
    const { email, password, user } = await signUp(t);
    const link = await resetToken(email);
    const hash = (await t.db.models.User.findByPk(user.id))?.password_hash;
    t.clock.advance(RESET_TOKEN_TTL_MS + 1000);
    await reset({ token: link, new_password: 'too late password' }).expect(400);
    expect((await t.db.models.User.findByPk(user.id))?.password_hash).toBe(hash);
    await login(email, password).expect(200);
  });

  it('invalidates an earlier link when a new one is requested', async () => {
    const { email } = await signUp(t);
    const first = await resetToken(email);
    const second = await resetToken(email);
    expect(second).not.toBe(first);
    await reset({ token: first, new_password: 'from the first link' }).expect(400);
    await reset({ token: second, new_password: 'from the second link' }).expect(200);
  });

  it('refuses a made-up token', async () => {
    const before = await rowCounts(t);
    await reset({ token: randomBytes(32).toString('base64url'), new_password: 'whatever password' }).expect(
      400,
    );
    expect(await rowCounts(t)).toEqual(before);
  });

  it.each([
    [
      {},
      [
        ['token', 'Reset token is required'],
        ['new_password', 'New password is required'],
      ],
    ],
    [{ token: 'abc', new_password: 'short' }, [['new_password', 'Password must be at least 8 characters']]],
    [
      { token: 5, new_password: ['x'] },
      [
        ['token', 'Must be text'],
        ['new_password', 'Must be text'],
      ],
    ],
  ])('refuses %j with 422', async (body, expected) => {
    const response = await reset(body).expect(422);
    expect(response.body.detail).toBe(expected[0]?.[1]);
    expect(response.body.errors).toEqual(expected.map(([path, message]) => ({ path, message })));
  });

  it('does not spend the link on a request that fails validation', async () => {
    const { email } = await signUp(t);
    const link = await resetToken(email);
    await reset({ token: link, new_password: 'short' }).expect(422);
    await reset({ token: link, new_password: 'long enough now' }).expect(200);
  });
});
