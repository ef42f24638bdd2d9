import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PREFIX } from '@attestly/contracts';
import { sha256 } from '../src/lib/crypto';
import { createTestApp, randomClientIp, rowCounts, signUp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const HOUR = 3600_000;
const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@example.com`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const inFuture = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();

async function userRow(email: string) {
  return t.db.models.User.findOne({ where: { email }, raw: true });
}

describe('POST /users/register', () => {
  it('creates the account with a scrypt hash, audits it and mails a verification link', async () => {
    const email = uniqueEmail('new');
    const ip = randomClientIp();
    const response = await t.request
      .post('/api/v1/users/register')
      .set('X-Forwarded-For', ip)
      .set('User-Agent', 'register-test/1.0')
      .send({ full_name: '  Ada Lovelace ', email, password: 'analytical engine', phone: '+44 20 7946 0958' })
      .expect(201);
    expect(response.body).toEqual({ message: 'Account created successfully! Please sign in.' });

    const row = await userRow(email);
    expect(row).toMatchObject({
      full_name: 'Ada Lovelace',
      phone: '+44 20 7946 0958',
      email_verified_at: null,
    });
    expect(row?.password_hash).toMatch(/^scrypt\$12\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(row?.password_hash).not.toContain('analytical');

    // Auditing and the verification mail follow the response (so a new address answers as fast as a taken one).
    const mail = await t.smtp.waitFor(email, /Confirm your e-mail address/);
    expect(mail.text).toMatch(/^http:\/\/attestly\.test\/confirm-email\/[\w-]{32}$/m);
    const audit = await t.db.models.AuditLog.findOne({
      where: { user_id: row?.id, event_type: 'user.registered' },
    });
    expect(audit).toMatchObject({ ip_address: ip, user_agent: 'register-test/1.0' });
  });

  it('stores the email lower-cased, so signing in ignores case', async () => {
    const local = `MiXeD-${randomBytes(4).toString('hex')}`;
    await t.request
      .post('/api/v1/users/register')
      .set('X-Forwarded-For', randomClientIp())
      .send({ full_name: 'Case Test', email: `  ${local}@Example.COM `, password: 'password123' })
      .expect(201);
    expect(await userRow(`${local.toLowerCase()}@example.com`)).not.toBeNull();
    await t.request
      .post('/api/v1/users/login')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email: `${local.toUpperCase()}@EXAMPLE.com`, password: 'password123' })
      .expect(200);
  });

  it.each([
    [
      {},
      [
        ['full_name', 'Full name is required'],
        ['email', 'Email is required'],
        ['password', 'Password is required'],
      ],
    ],
    [
      { full_name: '   ', email: 'a@example.com', password: 'password123' },
      [['full_name', 'Full name is required']],
    ],
    [
      { full_name: 'A', email: '', password: '' },
      [
        ['email', 'Email is required'],
        ['password', 'Password is required'],
      ],
    ],
    [{ full_name: 'A', email: 'not-an-email', password: 'password123' }, [['email', 'Invalid email']]],
    [
      { full_name: 'A', email: 'a@example.com', password: 'short' },
      [['password', 'Password must be at least 8 characters']],
    ],
    [
      { full_name: 'A', email: 'a@example.com', password: 'password123', phone: 'call me' },
      [['phone', 'Invalid phone number']],
    ],
    [
      { full_name: 42, email: ['a@example.com'], password: { value: 'x' } },
      [
        ['full_name', 'Must be text'],
        ['email', 'Must be text'],
        ['password', 'Must be text'],
      ],
    ],
  ])('refuses %j with 422 naming each field, and stores nothing', async (body, expected) => {
    const before = await rowCounts(t);
    const response = await t.request
      .post('/api/v1/users/register')
      .set('X-Forwarded-For', randomClientIp())
      .send(body)
      .expect(422);
    expect(response.body.code).toBe('validation.failed');
    expect(response.body.request_id).toBe(response.headers['x-request-id']);
    expect(response.body.detail).toBe(expected[0]?.[1]);
    expect(response.body.errors).toEqual(expected.map(([path, message]) => ({ path, message })));
    expect(await rowCounts(t)).toEqual(before);
  });

  it('answers an existing email exactly like a new one, mails the owner and keeps the one account', async () => {
    const owner = await signUp(t, { full_name: 'Owner' });
    const hashBefore = (await userRow(owner.email))?.password_hash;
    const fresh = await t.request
      .post('/api/v1/users/register')
      .set('X-Forwarded-For', randomClientIp())
      .send({ full_name: 'Someone', email: uniqueEmail('fresh'), password: 'password123' })
      .expect(201);
    const before = await rowCounts(t, ['users']);
    const again = await t.request
      .post('/api/v1/users/register')
      .set('X-Forwarded-For', randomClientIp())
      .send({ full_name: 'Intruder', email: owner.email.toUpperCase(), password: 'intruder-password' })
      .expect(201);
    expect(again.body).toEqual(fresh.body);
    expect(await rowCounts(t, ['users'])).toEqual(before);
    const row = await userRow(owner.email);
    expect(row).toMatchObject({ full_name: 'Owner', password_hash: hashBefore });

    const notice = await t.smtp.waitFor(owner.email, /tried to create an Attestly account/);
    expect(notice.text).toContain('http://attestly.test/forgot-password');
    await t.request
      .post('/api/v1/users/login')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email: owner.email, password: 'intruder-password' })
      .expect(401);
  });
});

describe('POST /users/login', () => {
  it('returns the profile and a user token valid for 12 hours, stored only as a hash', async () => {
    const email = uniqueEmail('login');
    const ip = randomClientIp();
    await t.request
      .post('/api/v1/users/register')
      .set('X-Forwarded-For', ip)
      .send({ full_name: 'Login Test', email, password: 'password123' })
      .expect(201);
    const response = await t.request
      .post('/api/v1/users/login')
      .set('X-Forwarded-For', ip)
      .set('User-Agent', 'login-test')
      .send({ email, password: 'password123' })
      .expect(200);
    expect(response.body.token_type).toBe('Bearer');
    expect(response.body.access_token).toMatch(new RegExp(`^${TOKEN_PREFIX.user}[\\w-]{43}$`));
    expect(response.body.expires_at).toBe(inFuture(12 * HOUR));
    expect(response.body.user).toMatchObject({
      email,
      full_name: 'Login Test',
      is_verified: false,
      is_partner: false,
    });
    expect(response.body.user).not.toHaveProperty('password_hash');

    const sessions = await t.db.models.Session.findAll({ where: { subject_id: response.body.user.id } });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.get({ plain: true })).toMatchObject({
      kind: 'user',
      remember: false,
      token_hash: sha256(response.body.access_token),
      ip_address: ip,
      user_agent: 'login-test',
    });
    const stored = JSON.stringify(await t.db.models.Session.findAll({ raw: true }));
    expect(stored).not.toContain(response.body.access_token);
    expect((await userRow(email))?.last_login_at).not.toBeNull();
  });

  it('keeps a remembered session for 30 days', async () => {
    const { token } = await signUp(t, { rememberMe: true });
    const session = await t.db.models.Session.findOne({ where: { token_hash: sha256(token) } });
    expect(session?.remember).toBe(true);
    expect(session?.expires_at.toISOString()).toBe(inFuture(30 * 24 * HOUR));
  });

  it('answers a wrong password and an unknown email with the same 401, creating no session', async () => {
    const { email } = await signUp(t);
    const before = await rowCounts(t, ['sessions', 'users']);
    const wrong = await t.request
      .post('/api/v1/users/login')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email, password: 'wrong password' })
      .expect(401);
    const unknown = await t.request
      .post('/api/v1/users/login')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email: uniqueEmail('nobody'), password: 'wrong password' })
      .expect(401);
    expect(wrong.body).toEqual({
      detail: 'Invalid email or password',
      code: 'auth.invalid_credentials',
      request_id: wrong.body.request_id,
    });
    expect({ ...unknown.body, request_id: undefined }).toEqual({ ...wrong.body, request_id: undefined });
    expect(await rowCounts(t, ['sessions', 'users'])).toEqual(before);
  });

  it.each([
    [
      {},
      [
        ['email', 'Email is required'],
        ['password', 'Password is required'],
      ],
    ],
    [
      { email: '', password: '' },
      [
        ['email', 'Email is required'],
        ['password', 'Password is required'],
      ],
    ],
    [{ email: 'nobody', password: 'x' }, [['email', 'Invalid email']]],
    [
      { email: 'a@example.com', password: 'x', rememberMe: 'yes' },
      [['rememberMe', 'rememberMe must be true or false']],
    ],
    [
      { email: 7, password: false },
      [
        ['email', 'Must be text'],
        ['password', 'Must be text'],
      ],
    ],
  ])('refuses %j with 422 and changes nothing', async (body, expected) => {
    const before = await rowCounts(t);
    const response = await t.request
      .post('/api/v1/users/login')
      .set('X-Forwarded-For', randomClientIp())
      .send(body)
      .expect(422);
    expect(response.body.detail).toBe(expected[0]?.[1]);
    expect(response.body.errors).toEqual(expected.map(([path, message]) => ({ path, message })));
    expect(await rowCounts(t)).toEqual(before);
  });

  it('refuses a disabled account only after the password is proven', async () => {
    const { email, password, user } = await signUp(t);
    await t.db.models.User.update({ is_active: false }, { where: { id: user.id } });
    const wrong = await t.request
      .post('/api/v1/users/login')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email, password: 'not it!!' });
    expect(wrong.status).toBe(401);
    const right = await t.request
      .post('/api/v1/users/login')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email, password });
    expect(right.status).toBe(403);
    expect(right.body.code).toBe('auth.account_disabled');
  });
});

describe('bearer authentication on user endpoints', () => {
  it('refuses a request without a token', async () => {
    const response = await t.request.get('/api/v1/users/profile').expect(401);
    expect(response.body).toMatchObject({ code: 'auth.missing_token', detail: 'Authentication required' });
    expect(response.body.request_id).toEqual(expect.any(String));
  });

  it('refuses a non-bearer Authorization header', async () => {
    const { token } = await signUp(t);
    await t.request.get('/api/v1/users/profile').set('Authorization', `Basic ${token}`).expect(401);
    await t.request.get('/api/v1/users/profile').set('Authorization', token).expect(401);
  });

  it.each(['partner', 'admin', 'admin_setup'] as const)(
    'refuses a %s token for the same subject',
    async (kind) => {
      const { user } = await signUp(t);
      const { token } = await t.services.sessions.issue(kind, user.id, {
        remember: false,
        ip: null,
        userAgent: null,
      });
      expect(token.startsWith(TOKEN_PREFIX[kind])).toBe(true);
      const response = await t.request.get('/api/v1/users/profile').set(bearer(token)).expect(401);
      expect(response.body.code).toBe('auth.invalid_token');
      // Relabelling the token with the user prefix does not help: the stored kind must match too.
      const relabelled = TOKEN_PREFIX.user + token.slice(TOKEN_PREFIX[kind].length);
      await t.request.get('/api/v1/users/profile').set(bearer(relabelled)).expect(401);
    },
  );

  it('refuses a made-up token with the user prefix', async () => {
    await t.request
      .get('/api/v1/users/profile')
      .set(bearer(`${TOKEN_PREFIX.user}${randomBytes(32).toString('base64url')}`))
      .expect(401);
  });

  it('refuses a token once it has expired, and a remembered one lasts longer', async () => {
    const short = await signUp(t);
    const remembered = await signUp(t, { rememberMe: true });
    t.clock.advance(12 * HOUR - 1000);
    await t.request.get('/api/v1/users/profile').set(bearer(short.token)).expect(200);
    t.clock.advance(2000);
    const expired = await t.request.get('/api/v1/users/profile').set(bearer(short.token)).expect(401);
    expect(expired.body.detail).toBe('Your session has expired. Please sign in again.');
    await t.request.get('/api/v1/users/profile').set(bearer(remembered.token)).expect(200);
    t.clock.advance(30 * 24 * HOUR);
    await t.request.get('/api/v1/users/profile').set(bearer(remembered.token)).expect(401);
  });
});

describe('POST /users/refresh-token', () => {
  it('rotates the token: the new one works, the old one is revoked, the remember choice is kept', async () => {
    const { token, user } = await signUp(t, { rememberMe: true });
    t.clock.advance(HOUR);
    const response = await t.request.post('/api/v1/users/refresh-token').set(bearer(token)).expect(200);
    expect(response.body.access_token).not.toBe(token);
    expect(response.body.access_token.startsWith(TOKEN_PREFIX.user)).toBe(true);
    expect(response.body.expires_at).toBe(inFuture(30 * 24 * HOUR));
    expect(response.body.user.id).toBe(user.id);
    await t.request.get('/api/v1/users/profile').set(bearer(token)).expect(401);
    await t.request.get('/api/v1/users/profile').set(bearer(response.body.access_token)).expect(200);
    await t.request.post('/api/v1/users/refresh-token').set(bearer(token)).expect(401);
    const sessions = await t.db.models.Session.findAll({ where: { subject_id: user.id } });
    expect(sessions.map((session) => session.remember)).toEqual([true]);
  });

  it('lets only one of two simultaneous refreshes with the same token succeed', async () => {
    const { token, user } = await signUp(t);
    const [first, second] = await Promise.all([
      t.request.post('/api/v1/users/refresh-token').set(bearer(token)),
      t.request.post('/api/v1/users/refresh-token').set(bearer(token)),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 401]);
    expect(await t.db.models.Session.count({ where: { subject_id: user.id } })).toBe(1);
  });

  it('refuses without a token, with an expired token and with a partner token', async () => {
    await t.request.post('/api/v1/users/refresh-token').expect(401);
    const { token, user } = await signUp(t);
    const partner = await t.services.sessions.issue('partner', user.id, {
      remember: false,
      ip: null,
      userAgent: null,
    });
    await t.request.post('/api/v1/users/refresh-token').set(bearer(partner.token)).expect(401);
    t.clock.advance(12 * HOUR + 1);
    await t.request.post('/api/v1/users/refresh-token').set(bearer(token)).expect(401);
  });
});

describe('POST /users/logout', () => {
  it('revokes the session of the token and only that one', async () => {
    const first = await signUp(t);
    const second = await t.request
      .post('/api/v1/users/login')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email: first.email, password: first.password })
      .expect(200);
    await t.request.post('/api/v1/users/logout').set(bearer(first.token)).expect(204);
    await t.request.get('/api/v1/users/profile').set(bearer(first.token)).expect(401);
    await t.request.post('/api/v1/users/logout').set(bearer(first.token)).expect(401);
    expect(await t.db.models.Session.findOne({ where: { token_hash: sha256(first.token) } })).toBeNull();
    await t.request.get('/api/v1/users/profile').set(bearer(second.body.access_token)).expect(200);
  });

  it('refuses without a token', async () => {
    await t.request.post('/api/v1/users/logout').expect(401);
  });
});
