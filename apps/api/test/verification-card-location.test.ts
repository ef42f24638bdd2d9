import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardFingerprint } from '../src/modules/verification/credit-card';
import { isPublicAddress, normaliseIp } from '../src/modules/verification/location';
import { randomBytes } from 'node:crypto';
import { createTestApp, type TestApp } from './helpers';

/**
 * Card and location verification, the status endpoint and the generic /users/verify entry point. No vision engine
 * here: these methods never touch media. The app trusts X-Forwarded-For so tests can speak from public addresses.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ATTESTLY_TRUST_PROXY: 'true' } });
});
afterAll(async () => {
  await t.close();
});

const year = () => t.clock.now().getUTCFullYear();
const card = (overrides: Record<string, unknown> = {}) => ({
  card_number: '4242 4242 4242 4242',
  cardholder_name: 'Ada Lovelace',
  expiry_month: '12',
  expiry_year: String(year() + 2),
  cvv: '123',
  ...overrides,
});
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Sign-ups are limited per address, so each test user arrives from its own documentation address (RFC 5737). */
let users = 0;
async function signUp(_t: TestApp) {
  const from = `203.0.113.${++users}`;
  const email = `user-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  await t.request
    .post('/api/v1/users/register')
    .set('X-Forwarded-For', from)
    .send({ full_name: 'Test User', email, password })
    .expect(201);
  const login = await t.request
    .post('/api/v1/users/login')
    .set('X-Forwarded-For', from)
    .send({ email, password })
    .expect(200);
  return { email, token: login.body.access_token as string, user: login.body.user as { id: string } };
}

async function setProfile(
  token: string,
  email: string,
  place: { country: string | null; state?: string | null },
) {
  await t.request
    .put('/api/v1/users/profile')
    .set(auth(token))
    .send({ full_name: 'Test User', email, country: place.country, state: place.state ?? null })
    .expect(200);
}

describe('credit card verification', () => {
  it('requires a signed-in user', async () => {
    const response = await t.request.post('/api/v1/users/verify/credit-card').send(card()).expect(401);
    expect(response.body.code).toBe('auth.missing_token');
  });

  it('lists every missing field with the spec message', async () => {
    const { token } = await signUp(t);
    const response = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(token))
      .send({})
      .expect(422);
    expect(response.body.detail).toBe('Card number is required');
    expect(response.body.errors).toEqual([
      { path: 'card_number', message: 'Card number is required' },
      { path: 'cardholder_name', message: 'Cardholder name is required' },
      { path: 'expiry_month', message: 'Expiry month is required' },
      { path: 'expiry_year', message: 'Expiry year is required' },
      { path: 'cvv', message: 'CVV is required' },
    ]);
  });

  it('rejects a number that fails the Luhn check, a past expiry and a CVV of the wrong length', async () => {
    const { token } = await signUp(t);
    const luhn = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(token))
      .send(card({ card_number: '4242424242424241' }));
    expect(luhn.status).toBe(422);
    expect(luhn.body.detail).toBe('Invalid card number');
    const expired = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(token))
      .send(card({ expiry_year: String(year() - 1) }));
    expect(expired.status).toBe(422);
    expect(expired.body.errors).toEqual([
      { path: 'expiry_year', message: `Expiry year must be between ${year()} and ${year() + 10}` },
    ]);
    const tooFar = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(token))
      .send(card({ expiry_year: String(year() + 11) }));
    expect(tooFar.status).toBe(422);
    const amex = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(token))
      .send(card({ card_number: '378282246310005', cvv: '123' }));
    expect(amex.status).toBe(422);
    expect(amex.body.errors[0].path).toBe('cvv');
    const month = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(token))
      .send(card({ expiry_month: '13' }));
    expect(month.body.detail).toBe('Expiry month must be between 01 and 12');
  });

  it('decides a format-level check at once as rejected (never pending), keeping only brand, last four and a fingerprint', async () => {
    const { token, user } = await signUp(t);
    const response = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(token))
      .send(card())
      .expect(201);
    expect(response.body.status).toBe('rejected');
    expect(response.body.message).toMatch(/A card cannot verify your age on this server/);
    expect(response.body.message).toMatch(/no card issuer has confirmed the card/);
    expect(response.body.verification).toMatchObject({
      verification_type: 'age',
      verification_method: 'credit_card',
      status: 'rejected',
      confidence_score: 0,
      needs_manual_review: false,
      details: {
        check: 'format_only',
        issuer_check: 'not_available',
        brand: 'visa',
        last4: '4242',
        card_seen_on_other_accounts: 0,
      },
    });
    const status = await t.request.get('/api/v1/users/verification-status').set(auth(token)).expect(200);
    expect(status.body).toMatchObject({ age_verified: false, pending_reviews: 0 });
    // Nothing is left waiting: no pending card check exists that nobody could decide.
    expect(
      await t.db.models.Verification.count({
        where: { verification_method: 'credit_card', status: 'pending' },
      }),
    ).toBe(0);

    const row = await t.db.models.Verification.findByPk(response.body.verification_id as string);
    expect(row?.user_id).toBe(user.id);
    expect(row?.subject_fingerprint).toBe(cardFingerprint(t.config.masterKey, '4242424242424242'));
  });

  it('never stores or logs the card number or the CVV', async () => {
    const { token } = await signUp(t);
    const secretNumber = '5555555555554444';
    const secretCvv = '987';
    await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(token))
      .send(card({ card_number: secretNumber, cvv: secretCvv }))
      .expect(201);
    const tables = ['verifications', 'audit_logs', 'rate_limits', 'users'];
    for (const table of tables) {
      const [rows] = await t.db.sequelize.query(`SELECT * FROM ${table}`);
      const dump = JSON.stringify(rows);
      expect(dump, table).not.toContain(secretNumber);
      expect(dump, table).not.toContain('5555 5555');
      expect(dump, table).not.toMatch(new RegExp(`"cvv"|:"${secretCvv}"`));
    }
    expect(JSON.stringify(t.logs.lines)).not.toContain(secretNumber);
  });

  it('shows when the same card was already used by another account', async () => {
    const first = await signUp(t);
    const second = await signUp(t);
    await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(first.token))
      .send(card({ card_number: '6011111111111117' }))
      .expect(201);
    const response = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(second.token))
      .send(card({ card_number: '6011 1111 1111 1117' }))
      .expect(201);
    expect(response.body.verification.details).toMatchObject({
      brand: 'discover',
      card_seen_on_other_accounts: 1,
    });
  });

  it('derives a stable fingerprint that depends on the master key', () => {
    const key = Buffer.alloc(32, 7);
    expect(cardFingerprint(key, '4242424242424242')).toBe(cardFingerprint(key, '4242424242424242'));
    expect(cardFingerprint(key, '4242424242424242')).toMatch(/^[0-9a-f]{64}$/);
    expect(cardFingerprint(Buffer.alloc(32, 8), '4242424242424242')).not.toBe(
      cardFingerprint(key, '4242424242424242'),
    );
    expect(cardFingerprint(key, '4000056655665556')).not.toBe(cardFingerprint(key, '4242424242424242'));
  });
});

describe('POST /users/verify', () => {
  it('runs the card check for method credit_card and points uploads to their own endpoints', async () => {
    const { token } = await signUp(t);
    const ok = await t.request
      .post('/api/v1/users/verify')
      .set(auth(token))
      .send({ method: 'credit_card', ...card() })
      .expect(201);
    expect(ok.body.verification.verification_method).toBe('credit_card');
    const document = await t.request
      .post('/api/v1/users/verify')
      .set(auth(token))
      .send({ method: 'document' })
      .expect(422);
    expect(document.body.detail).toMatch(/POST \/api\/v1\/users\/verify\/document/);
    const face = await t.request
      .post('/api/v1/users/verify')
      .set(auth(token))
      .send({ method: 'facial_recognition' })
      .expect(422);
    expect(face.body.detail).toMatch(/age-verification\/verify-age/);
    const unknown = await t.request
      .post('/api/v1/users/verify')
      .set(auth(token))
      .send({ method: 'telepathy' })
      .expect(422);
    expect(unknown.body.detail).toMatch(/^method must be one of/);
  });
});

describe('location verification', () => {
  it('classifies loopback, private and carrier-grade NAT addresses as non-public', () => {
    for (const ip of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '100.64.0.1',
      'fd00::1',
      'fe80::1',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    expect(isPublicAddress('81.2.69.160')).toBe(true);
    expect(isPublicAddress('2a00:1450:4009:81f::200e')).toBe(true);
    expect(normaliseIp('::ffff:81.2.69.160')).toBe('81.2.69.160');
  });

  it('asks for a declared country first', async () => {
    const { token } = await signUp(t);
    const response = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(token))
      .set('X-Forwarded-For', '81.2.69.160')
      .expect(422);
    expect(response.body.detail).toBe(
      'Please add your country to your profile before verifying your location.',
    );
  });

  it('cannot locate a private network address and says so', async () => {
    const { token, email } = await signUp(t);
    await setProfile(token, email, { country: 'GB' });
    const response = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(token))
      .set('X-Forwarded-For', '192.168.1.20')
      .expect(201);
    expect(response.body.status).toBe('failed');
    expect(response.body.message).toMatch(/cannot determine your location from a private network address/);
  });

  it('approves a matching country and state from the on-box database and records the proven location', async () => {
    const { token, email } = await signUp(t);
    await setProfile(token, email, { country: 'GB', state: 'England' });
    const response = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(token))
      .set('X-Forwarded-For', '81.2.69.160')
      .expect(201);
    expect(response.body.status).toBe('approved');
    expect(response.body.verification.details).toMatchObject({
      detected: { country: 'GB', state: 'England' },
      source: expect.stringMatching(/GeoLite2.*MaxMind/),
      vpn_detection: 'not_performed',
    });
    const status = await t.request.get('/api/v1/users/verification-status').set(auth(token)).expect(200);
    expect(status.body).toMatchObject({
      overall: 'partially_verified',
      location_verified: true,
      location: { country: 'GB', state: 'England' },
    });
    const profile = await t.request.get('/api/v1/users/profile').set(auth(token)).expect(200);
    expect(profile.body.location_verified).toBe(true);
  });

  it('rejects a different country and a different state', async () => {
    const { token, email } = await signUp(t);
    await setProfile(token, email, { country: 'US', state: 'TX' });
    const country = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(token))
      .set('X-Forwarded-For', '81.2.69.160')
      .expect(201);
    expect(country.body.status).toBe('rejected');
    expect(country.body.message).toMatch(/appears to be in GB, but your profile says US/);
    await setProfile(token, email, { country: 'CA', state: 'ON' });
    const state = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(token))
      .set('X-Forwarded-For', '24.48.0.1')
      .expect(201);
    expect(state.body.status).toBe('rejected');
    expect(state.body.message).toMatch(/Quebec/);
    await setProfile(token, email, { country: 'CA', state: 'QC' });
    const matching = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(token))
      .set('X-Forwarded-For', '24.48.0.1')
      .expect(201);
    expect(matching.body.status).toBe('approved');
    expect(matching.body.message).toBe('Your location is verified: Quebec, CA.');
  });
});

describe('a server without the vision models', () => {
  it('answers 503 for the camera and document routes and reports no vision component', async () => {
    const { token } = await signUp(t);
    const face = await t.request
      .post('/api/v1/age-verification/verify-age')
      .set(auth(token))
      .field('media_type', 'image')
      .attach(
        'media_file',
        Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0]),
        'verification.jpg',
      )
      .expect(503);
    expect(face.body).toMatchObject({
      code: 'verification.unavailable',
      detail: expect.stringMatching(/not available on this server/),
    });
    const document = await t.request
      .post('/api/v1/users/verify/document')
      .set(auth(token))
      .attach('file', Buffer.from('%PDF-1.4\n%%EOF\n'), 'passport.pdf')
      .expect(503);
    expect(document.body.code).toBe('verification.unavailable');
    expect((await t.request.get('/readyz').expect(200)).body.checks.vision).toBeUndefined();
  });
});

describe('verification status and history', () => {
  it("lists only the caller's own verifications and hides other users' by id", async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const created = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(owner.token))
      .send(card())
      .expect(201);
    const id = created.body.verification_id as string;
    const list = await t.request.get('/api/v1/users/verifications').set(auth(owner.token)).expect(200);
    expect(list.body.total_count).toBe(1);
    expect(list.body.verifications[0].id).toBe(id);
    await t.request.get(`/api/v1/users/verifications/${id}`).set(auth(owner.token)).expect(200);
    await t.request.get(`/api/v1/users/verifications/${id}`).set(auth(other.token)).expect(404);
    const otherStatus = await t.request
      .get('/api/v1/users/verification-status')
      .set(auth(other.token))
      .expect(200);
    expect(otherStatus.body).toMatchObject({ overall: 'not_verified', verifications: [] });
  });

  it('lets a proven fact lapse after its validity period', async () => {
    const { token, email, user } = await signUp(t);
    await setProfile(token, email, { country: 'FR' });
    const response = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(token))
      .set('X-Forwarded-For', '90.84.0.1')
      .expect(201);
    expect(response.body.status).toBe('approved');
    expect((await t.services.verifications.status(user.id)).location_verified).toBe(true);
    // A year on, the sign-in has long expired too, so the service is asked directly.
    t.clock.advance(t.config.verificationValidityMs + 1000);
    const status = await t.services.verifications.status(user.id);
    expect(status.location_verified).toBe(false);
    expect(status.location).toBeNull();
    expect(status.verifications[0]?.status).toBe('expired');
  });
});

describe('location anywhere (issue 25 item 3)', () => {
  it("offers a country's subdivisions exactly as the on-box data names them, to signed-in users only", async () => {
    const { token } = await signUp(t);
    await t.request.get('/api/v1/locations/countries/NG/subdivisions').expect(401);
    const nigeria = await t.request
      .get('/api/v1/locations/countries/ng/subdivisions')
      .set(auth(token))
      .expect(200);
    expect(nigeria.body.country).toBe('NG');
    expect(nigeria.body.subdivisions).toEqual(expect.arrayContaining(['Lagos', 'Rivers State']));
    expect(nigeria.body.subdivisions).toEqual(
      [...nigeria.body.subdivisions].sort((a: string, b: string) => a.localeCompare(b, 'en')),
    );
    const germany = await t.request
      .get('/api/v1/locations/countries/DE/subdivisions')
      .set(auth(token))
      .expect(200);
    expect(germany.body.subdivisions).toEqual(expect.arrayContaining(['Bavaria', 'Hesse', 'Saxony']));
    expect(germany.body.subdivisions).toHaveLength(new Set(germany.body.subdivisions).size);
    const antarctica = await t.request
      .get('/api/v1/locations/countries/AQ/subdivisions')
      .set(auth(token))
      .expect(200);
    expect(antarctica.body.subdivisions).toEqual([]);
    const unknown = await t.request
      .get('/api/v1/locations/countries/ZZ/subdivisions')
      .set(auth(token))
      .expect(404);
    expect(unknown.body).toMatchObject({ code: 'not_found', detail: 'ZZ is not a country code' });
  });

  it('verifies a location declared in a country and state beyond the six the reference listed', async () => {
    const { token, email } = await signUp(t);
    await setProfile(token, email, { country: 'NG', state: 'Rivers State' });
    const rivers = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(token))
      .set('X-Forwarded-For', '102.88.0.1')
      .expect(201);
    expect(rivers.body.status).toBe('approved');
    expect(rivers.body.message).toBe('Your location is verified: Rivers State, NG.');
    const lagos = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(token))
      .set('X-Forwarded-For', '41.203.64.1')
      .expect(201);
    expect(lagos.body.status).toBe('rejected');
    expect(lagos.body.message).toMatch(/appears to be in Lagos, but your profile says Rivers State/);

    await setProfile(token, email, { country: 'XK' });
    const kosovo = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(token))
      .set('X-Forwarded-For', '46.99.0.1')
      .expect(201);
    expect(kosovo.body.status).toBe('approved');
    const status = await t.request.get('/api/v1/users/verification-status').set(auth(token)).expect(200);
    expect(status.body.location).toEqual({ country: 'XK', state: null });
  });
});
