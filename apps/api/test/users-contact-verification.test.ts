import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitKey } from '../src/modules/shared/rate-limit/service';
import {
  EMAIL_TOKEN_TTL_MS,
  EMAIL_VERIFICATION_BY_USER,
  PHONE_CODE_TTL_MS,
  PHONE_VERIFICATION_BY_USER,
} from '../src/modules/users/accounts/service';
import { createTestApp, randomClientIp, rowCounts, signUp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const VERIFY_SUBJECT = /Confirm your e-mail address/;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The verification link tokens mailed to `email`, oldest first, once at least `count` have arrived. */
async function emailTokens(email: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const mails = t.smtp.messages.filter(
      (mail) => mail.to.includes(email) && VERIFY_SUBJECT.test(mail.subject),
    );
    if (mails.length >= count) {
      return mails.map((mail) => /\/confirm-email\/([\w-]+)/.exec(mail.text)?.[1] ?? '');
    }
    if (Date.now() > deadline) throw new Error(`expected ${count} verification mails to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The last code the log notifier wrote for `phone`. */
function phoneCode(phone: string): string {
  const line = [...t.logs.lines].reverse().find((entry) => entry.notifier === 'log' && entry.phone === phone);
  if (!line) throw new Error(`no code logged for ${phone}`);
  return String(line.code);
}

const verifyEmail = (token: unknown) =>
  t.request.post('/api/v1/users/verify-email').set('X-Forwarded-For', randomClientIp()).send({ token });
const randomPhone = () => `+4477${String(randomBytes(4).readUInt32BE(0)).padStart(8, '0').slice(0, 8)}`;

describe('e-mail verification', () => {
  it('verifies the address from the link mailed at sign-up, once', async () => {
    const { email, token, user } = await signUp(t);
    const [link] = await emailTokens(email, 1);
    const response = await verifyEmail(link).expect(200);
    expect(response.body.message).toBe('Your email address is verified.');
    expect(response.body.email_verified_at).toBe(t.clock.now().toISOString());
    const profile = await t.request.get('/api/v1/users/profile').set(bearer(token)).expect(200);
    expect(profile.body).toMatchObject({ email_verified_at: t.clock.now().toISOString(), is_verified: true });
    expect(
      await t.db.models.AuditLog.count({ where: { user_id: user.id, event_type: 'user.email_verified' } }),
    ).toBe(1);

    const again = await verifyEmail(link).expect(400);
    expect(again.body).toMatchObject({
      code: 'users.invalid_token',
      detail: 'This verification link is invalid or has expired',
    });
  });

  it('sends a fresh link on request, which replaces the earlier one', async () => {
    const { email, token } = await signUp(t);
    const response = await t.request
      .post('/api/v1/users/send-email-verification')
      .set(bearer(token))
      .expect(202);
    expect(response.body).toEqual({ message: 'Verification email sent' });
    const [first, second] = await emailTokens(email, 2);
    await verifyEmail(first).expect(400);
    await verifyEmail(second).expect(200);
    const already = await t.request
      .post('/api/v1/users/send-email-verification')
      .set(bearer(token))
      .expect(409);
    expect(already.body.code).toBe('users.email_already_verified');
  });

  it('refuses a link older than 24 hours', async () => {
    const { email, user } = await signUp(t);
    const [link] = await emailTokens(email, 1);
    t.clock.advance(EMAIL_TOKEN_TTL_MS + 1000);
    await verifyEmail(link).expect(400);
    expect((await t.db.models.User.findByPk(user.id))?.email_verified_at).toBeNull();
  });

  it('refuses a link sent to an address the account no longer has', async () => {
    const { email, token, user } = await signUp(t);
    const [link] = await emailTokens(email, 1);
    const newEmail = `moved-${randomBytes(4).toString('hex')}@example.com`;
    await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({ full_name: 'Test User', email: newEmail })
      .expect(200);
    const change = await t.smtp.waitFor(newEmail, /Confirm your new e-mail address/);
    await verifyEmail(/\/confirm-email\/([\w-]+)/.exec(change.text)?.[1]).expect(200);
    expect((await t.db.models.User.findByPk(user.id))?.email).toBe(newEmail);
    // The sign-up link proved the old address; the account no longer has it.
    await verifyEmail(link).expect(400);
  });

  it('keeps the mailed link whole in the raw message: plain 7-bit text without the user’s own words', async () => {
    // A name outside ASCII would make the mailer use quoted-printable ("=" → "=3D", lines split), and a name is
    // the user's own text in a mail to an address nobody has proven yet: the mail greets without it.
    const { email } = await signUp(t, { full_name: 'Zoë Ångström' });
    const mail = await t.smtp.waitFor(email, VERIFY_SUBJECT);
    expect(mail.raw).toMatch(/Content-Transfer-Encoding: 7bit/i);
    expect(mail.raw).not.toMatch(/Zo|ngstr/);
    const [token] = await emailTokens(email, 1);
    // Copied from the raw .eml as it is: one line, no soft break, nothing encoded inside the link.
    expect(mail.raw).toContain(`\nhttp://attestly.test/confirm-email/${token}\r\n`);
    expect(`http://attestly.test/confirm-email/${token}`.length).toBeLessThanOrEqual(76);
    await verifyEmail(token).expect(200);
  });

  it('limits verification mails to three per 15 minutes per account, counted in the database', async () => {
    const { token, user } = await signUp(t);
    for (let request = 1; request <= 3; request += 1) {
      await t.request.post('/api/v1/users/send-email-verification').set(bearer(token)).expect(202);
    }
    const limited = await t.request
      .post('/api/v1/users/send-email-verification')
      .set(bearer(token))
      .expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    const [rows] = await t.db.sequelize.query('SELECT count FROM rate_limits WHERE key = :key', {
      replacements: { key: rateLimitKey(EMAIL_VERIFICATION_BY_USER.name, user.id) },
    });
    expect(rows).toEqual([{ count: 4 }]);
  });

  it('refuses requests without a session or with a bad token body', async () => {
    await t.request.post('/api/v1/users/send-email-verification').expect(401);
    const missing = await verifyEmail(undefined).expect(422);
    expect(missing.body.errors).toEqual([{ path: 'token', message: 'Verification token is required' }]);
    const before = await rowCounts(t);
    await verifyEmail(randomBytes(32).toString('base64url')).expect(400);
    expect(await rowCounts(t)).toEqual(before);
  });
});

describe('phone verification', () => {
  it('sends a six-digit code through the notifier and verifies the number with it', async () => {
    const { token, user } = await signUp(t);
    const phone = randomPhone();
    const sent = await t.request
      .post('/api/v1/users/send-phone-verification')
      .set(bearer(token))
      .send({ phone })
      .expect(202);
    // No gateway configured: the screen is told that the operator, not an SMS, has the code.
    expect(sent.body).toEqual({ message: 'Verification code sent', delivery: 'log' });
    const code = phoneCode(phone);
    expect(code).toMatch(/^\d{6}$/);
    expect((await t.db.models.User.findByPk(user.id))?.pending_phone).toBe(phone);

    const verified = await t.request
      .post('/api/v1/users/verify-phone')
      .set(bearer(token))
      .send({ code })
      .expect(200);
    expect(verified.body).toMatchObject({ phone, phone_verified_at: t.clock.now().toISOString() });
    const row = await t.db.models.User.findByPk(user.id);
    expect(row).toMatchObject({ phone, pending_phone: null });
    expect(
      await t.db.models.AuditLog.count({ where: { user_id: user.id, event_type: 'user.phone_verified' } }),
    ).toBe(1);
    await t.request.post('/api/v1/users/verify-phone').set(bearer(token)).send({ code }).expect(422);
  });

  it('uses the number on the profile when none is given, and asks for one when there is none', async () => {
    const { token, email } = await signUp(t);
    const none = await t.request
      .post('/api/v1/users/send-phone-verification')
      .set(bearer(token))
      .send({})
      .expect(422);
    expect(none.body.errors).toEqual([{ path: 'phone', message: 'Phone number is required' }]);
    const phone = randomPhone();
    await t.request
      .put('/api/v1/users/profile')
      .set(bearer(token))
      .send({ full_name: 'Test User', email, phone })
      .expect(200);
    await t.request.post('/api/v1/users/send-phone-verification').set(bearer(token)).send({}).expect(202);
    expect(phoneCode(phone)).toMatch(/^\d{6}$/);
  });

  it('refuses a wrong code, and after five wrong codes refuses even the right one', async () => {
    const { token, user } = await signUp(t);
    const phone = randomPhone();
    await t.request
      .post('/api/v1/users/send-phone-verification')
      .set(bearer(token))
      .send({ phone })
      .expect(202);
    const code = phoneCode(phone);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const response = await t.request
        .post('/api/v1/users/verify-phone')
        .set(bearer(token))
        .send({ code: wrong })
        .expect(422);
      expect(response.body).toMatchObject({ code: 'users.invalid_code', detail: 'The code is incorrect' });
    }
    const fifth = await t.request
      .post('/api/v1/users/verify-phone')
      .set(bearer(token))
      .send({ code: wrong })
      .expect(422);
    expect(fifth.body.detail).toBe('Too many wrong codes. Please request a new code.');
    const right = await t.request
      .post('/api/v1/users/verify-phone')
      .set(bearer(token))
      .send({ code })
      .expect(422);
    expect(right.body.detail).toBe('Too many wrong codes. Please request a new code.');
    expect((await t.db.models.User.findByPk(user.id))?.phone_verified_at).toBeNull();
  });

  it('counts concurrent guesses too: a burst cannot try more than five codes', async () => {
    const { token, user } = await signUp(t);
    const phone = randomPhone();
    await t.request
      .post('/api/v1/users/send-phone-verification')
      .set(bearer(token))
      .send({ phone })
      .expect(202);
    const code = phoneCode(phone);
    const guesses = Array.from({ length: 20 }, (_, index) =>
      String((Number(code) + index + 1) % 1_000_000).padStart(6, '0'),
    );
    const responses = await Promise.all(
      guesses.map((guess) =>
        t.request.post('/api/v1/users/verify-phone').set(bearer(token)).send({ code: guess }),
      ),
    );
    expect(responses.every((response) => response.status === 422)).toBe(true);
    expect(
      responses.filter((response) => response.body.detail === 'The code is incorrect').length,
    ).toBeLessThanOrEqual(4);
    const row = await t.db.models.OneTimeToken.findOne({
      where: { subject_id: user.id, purpose: 'phone_verification' },
    });
    expect(row?.attempts).toBe(5);
    await t.request.post('/api/v1/users/verify-phone').set(bearer(token)).send({ code }).expect(422);
  });

  it('refuses a code older than ten minutes', async () => {
    const { token } = await signUp(t);
    const phone = randomPhone();
    await t.request
      .post('/api/v1/users/send-phone-verification')
      .set(bearer(token))
      .send({ phone })
      .expect(202);
    t.clock.advance(PHONE_CODE_TTL_MS + 1000);
    const response = await t.request
      .post('/api/v1/users/verify-phone')
      .set(bearer(token))
      .send({ code: phoneCode(phone) })
      .expect(422);
    expect(response.body.detail).toBe('The code has expired. Please request a new code.');
  });

  it('does not accept one account’s code for another account', async () => {
    const alice = await signUp(t);
    const bob = await signUp(t);
    const phone = randomPhone();
    await t.request
      .post('/api/v1/users/send-phone-verification')
      .set(bearer(alice.token))
      .send({ phone })
      .expect(202);
    await t.request
      .post('/api/v1/users/verify-phone')
      .set(bearer(bob.token))
      .send({ code: phoneCode(phone) })
      .expect(422);
    expect((await t.db.models.User.findByPk(bob.user.id))?.phone).toBeNull();
  });

  it('limits codes to three per 15 minutes per account', async () => {
    const { token, user } = await signUp(t);
    for (let request = 1; request <= 3; request += 1) {
      await t.request
        .post('/api/v1/users/send-phone-verification')
        .set(bearer(token))
        .send({ phone: randomPhone() })
        .expect(202);
    }
    const limited = await t.request
      .post('/api/v1/users/send-phone-verification')
      .set(bearer(token))
      .send({ phone: randomPhone() })
      .expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const [rows] = await t.db.sequelize.query('SELECT count FROM rate_limits WHERE key = :key', {
      replacements: { key: rateLimitKey(PHONE_VERIFICATION_BY_USER.name, user.id) },
    });
    expect(rows).toEqual([{ count: 4 }]);
  });

  it.each([
    [
      '/api/v1/users/send-phone-verification',
      { phone: 'call me maybe' },
      [['phone', 'Invalid phone number']],
    ],
    ['/api/v1/users/send-phone-verification', { phone: 44 }, [['phone', 'Must be text']]],
    ['/api/v1/users/verify-phone', {}, [['code', 'Verification code is required']]],
    ['/api/v1/users/verify-phone', { code: '12ab56' }, [['code', 'Enter the 6-digit code']]],
  ])('%s refuses %j with 422 and changes nothing', async (path, body, expected) => {
    const { token } = await signUp(t);
    const before = await rowCounts(t);
    const response = await t.request.post(path).set(bearer(token)).send(body).expect(422);
    expect(response.body.errors).toEqual(expected.map(([field, message]) => ({ path: field, message })));
    expect(await rowCounts(t)).toEqual(before);
  });

  it('requires a user session', async () => {
    await t.request.post('/api/v1/users/send-phone-verification').send({ phone: randomPhone() }).expect(401);
    await t.request.post('/api/v1/users/verify-phone').send({ code: '123456' }).expect(401);
  });
});
