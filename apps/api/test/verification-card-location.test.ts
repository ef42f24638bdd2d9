import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardFingerprint } from '../src/modules/users/verification/credit-card';
import { isPublicAddress, normaliseIp } from '../src/modules/users/verification/location';
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

describe('credit card verification without Stripe', () => {
  it('is not offered: no capability, and the card routes answer that card checks are not available', async () => {
    const config = await t.request.get('/api/v1/site-config').expect(200);
    expect(config.body.capabilities).toEqual({ card_check: null });
    // Nothing of Stripe's is admitted into the pages either.
    expect((await t.request.get('/healthz')).headers['content-security-policy']).not.toMatch(/stripe/);
    const { token } = await signUp(t);
    // The card routes are not mounted; a card number sent the old way is never read.
    for (const [path, body] of [
      ['/api/v1/users/verify/credit-card/setup', {}],
      ['/api/v1/users/verify/credit-card', card()],
    ] as const) {
      const answer = await t.request.post(path).set(auth(token)).send(body).expect(404);
      expect(answer.body, path).toMatchObject({ code: 'not_found', detail: 'No such API endpoint' });
    }
    const generic = await t.request
      .post('/api/v1/users/verify')
      .set(auth(token))
      .send({ method: 'credit_card', setup_intent_id: 'seti_123' })
      .expect(404);
    expect(generic.body).toMatchObject({
      code: 'verification.card_check_unavailable',
      detail: 'Card checks are not available on this server.',
    });
    expect(await t.db.models.Verification.count({ where: { verification_method: 'credit_card' } })).toBe(0);
    const { body: openapi } = await t.request.get('/api/v1/openapi.json').expect(200);
    expect(Object.keys(openapi.paths).filter((route) => route.includes('credit-card'))).toEqual([]);
  });

  it('derives a stable fingerprint of the Stripe card fingerprint that depends on the master key', () => {
    const key = Buffer.alloc(32, 1);
    expect(cardFingerprint(key, 'Xt5EWLLDS7FJjR1c')).toBe(cardFingerprint(key, 'Xt5EWLLDS7FJjR1c'));
    expect(cardFingerprint(Buffer.alloc(32, 2), 'Xt5EWLLDS7FJjR1c')).not.toBe(
      cardFingerprint(key, 'Xt5EWLLDS7FJjR1c'),
    );
    expect(cardFingerprint(key, 'Xt5EWLLDS7FJjR1c')).not.toContain('Xt5EWLLDS7FJjR1c');
  });
});

describe('POST /users/verify', () => {
  it('points uploads to their own endpoints and refuses unknown methods', async () => {
    const { token } = await signUp(t);
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
    await setProfile(owner.token, owner.email, { country: 'GB' });
    const created = await t.request
      .post('/api/v1/users/verify/location')
      .set(auth(owner.token))
      .set('X-Forwarded-For', '81.2.69.160')
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
