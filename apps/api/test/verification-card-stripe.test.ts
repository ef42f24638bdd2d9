import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardFingerprint } from '../src/modules/users/verification/credit-card';
import { createTestApp, signUp, type TestApp } from './helpers';
import { Attestly } from '../../sdk/src/index';
import { createSite, fullFlow, registerPartner } from './oidc-helpers';
import { startStripeFake } from './stripe-fake';

/**
 * The credit-card age check through Stripe (issue 25 item 1; DESIGN.md §5) against the local server that speaks
 * Stripe's wire protocol: the app creates and reads SetupIntents with the official SDK and its secret key; the
 * fake plays the browser's part (Stripe.js confirming the card with the issuer) with Stripe's test card numbers.
 */
const SECRET_KEY = 'sk_test_attestly_card_key';
const PUBLISHABLE_KEY = 'pk_test_attestly_card_key';

let t: TestApp;
let stripe: Awaited<ReturnType<typeof startStripeFake>>;
beforeAll(async () => {
  stripe = await startStripeFake({
    secretKey: SECRET_KEY,
    webhookSecret: 'whsec_unused',
    publishableKey: PUBLISHABLE_KEY,
  });
  t = await createTestApp({
    withOidc: true,
    env: {
      STRIPE_SECRET_KEY: SECRET_KEY,
      ATTESTLY_STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
      ATTESTLY_STRIPE_API_URL: stripe.apiUrl,
    },
  });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Starts a check, has "the browser" confirm the card, and finishes it. */
async function cardCheck(token: string, number: string, threeDSecure: 'pass' | 'fail' | 'pending' = 'pass') {
  const started = await t.request.post('/api/v1/users/verify/credit-card/setup').set(auth(token)).expect(201);
  stripe.confirmSetup(started.body.setup_intent_id as string, number, threeDSecure);
  const finished = await t.request
    .post('/api/v1/users/verify/credit-card')
    .set(auth(token))
    .send({ setup_intent_id: started.body.setup_intent_id });
  return { started, finished };
}

describe('credit-card age check with Stripe', () => {
  it('offers the method publicly and starts a SetupIntent confirmed by the issuer', async () => {
    const config = await t.request.get('/api/v1/site-config').expect(200);
    expect(config.body.capabilities).toEqual({
      card_check: { publishable_key: PUBLISHABLE_KEY, stripe_js_url: 'https://js.stripe.com/v3/' },
    });
    // The API reference lists the card routes here; the card fields are not among them (it never reaches us).
    const { body: openapi } = await t.request.get('/api/v1/openapi.json').expect(200);
    const finish = openapi.paths['/api/v1/users/verify/credit-card'].post;
    expect(Object.keys(finish.requestBody.content['application/json'].schema.properties)).toEqual([
      'setup_intent_id',
    ]);
    expect(openapi.paths['/api/v1/users/verify/credit-card/setup'].post.tags).toEqual(['Verification']);
    const page = await t.request.get('/healthz');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self' https:\/\/js\.stripe\.com/);
    expect(page.headers['content-security-policy']).toMatch(/frame-src 'self' https:\/\/js\.stripe\.com/);

    const { token } = await signUp(t);
    const started = await t.request
      .post('/api/v1/users/verify/credit-card/setup')
      .set(auth(token))
      .expect(201);
    expect(started.body).toEqual({
      message: 'Credit card verification initiated!',
      setup_intent_id: expect.stringMatching(/^seti_/),
      client_secret: expect.stringMatching(/^seti_.+_secret_/),
      publishable_key: PUBLISHABLE_KEY,
    });
    const created = stripe.calls.find((call) => call.method === 'POST' && call.path === '/v1/setup_intents');
    expect(created?.body).toMatchObject({
      usage: 'on_session',
      allowed_payment_method_types: ['card'],
      payment_method_options: { card: { request_three_d_secure: 'automatic' } },
      metadata: { attestly_purpose: 'age_check' },
    });
  });

  it('proves 18+ with an approved credit card, keeping only brand, last 4, funding, country and a keyed fingerprint', async () => {
    const { token, user } = await signUp(t);
    const { finished } = await cardCheck(token, '4242424242424242');
    expect(finished.status).toBe(201);
    expect(finished.body.status).toBe('approved');
    expect(finished.body.verification).toMatchObject({
      verification_method: 'credit_card',
      verification_type: 'age',
    });
    const row = await t.db.models.Verification.findByPk(finished.body.verification_id as string);
    expect(row?.result_details).toMatchObject({
      check: 'stripe_setup_intent',
      brand: 'visa',
      last4: '4242',
      funding: 'credit',
      country: 'US',
      proves: { minAge: 18 },
    });
    const stored = JSON.stringify(row?.toJSON());
    expect(stored).not.toContain('4242424242424242');
    expect(row?.subject_fingerprint).toBe(
      cardFingerprint(t.config.masterKey, Buffer.from('4242424242424242').toString('base64url').slice(0, 16)),
    );
    const profile = await t.request.get('/api/v1/users/profile').set(auth(token)).expect(200);
    expect(profile.body.age_verified).toBe(true);
    const status = await t.request.get('/api/v1/users/verification-status').set(auth(token)).expect(200);
    expect(status.body.proven_min_age).toBe(18);
    expect(user.id).toBeTruthy();
  });

  it('refuses debit and prepaid cards, declined cards and failed 3-D Secure, and proves nothing', async () => {
    for (const [number, status, text] of [
      ['5200828282828210', 'rejected', /Only a credit card can prove your age/],
      ['5105105105105100', 'rejected', /Only a credit card can prove your age/],
      ['4000000000009995', 'failed', /issuer did not confirm the card/],
    ] as const) {
      const { token } = await signUp(t);
      const { finished } = await cardCheck(token, number);
      expect(finished.status, number).toBe(201);
      expect(finished.body.status, number).toBe(status);
      expect(finished.body.message, number).toMatch(text);
      const profile = await t.request.get('/api/v1/users/profile').set(auth(token)).expect(200);
      expect(profile.body.age_verified, number).toBe(false);
    }
    const { token } = await signUp(t);
    const failed = await cardCheck(token, '4000002500003155', 'fail');
    expect(failed.finished.body.status).toBe('failed');
  });

  it('waits for an open 3-D Secure challenge, then decides once however many requests race to finish it', async () => {
    const { token } = await signUp(t);
    const { started, finished } = await cardCheck(token, '4000002500003155', 'pending');
    expect(finished.status).toBe(409);
    expect(finished.body).toMatchObject({ code: 'verification.card_check_not_confirmed' });
    const intentId = started.body.setup_intent_id as string;
    stripe.authenticate(intentId, true);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.request
          .post('/api/v1/users/verify/credit-card')
          .set(auth(token))
          .send({ setup_intent_id: intentId }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(answers.find((answer) => answer.status === 201)?.body.status).toBe('approved');
    expect(
      answers
        .filter((answer) => answer.status === 409)
        .every((answer) => answer.body.code === 'verification.card_check_decided'),
    ).toBe(true);
    const user = await t.request.get('/api/v1/users/profile').set(auth(token)).expect(200);
    const rows = await t.db.models.Verification.count({
      where: { user_id: user.body.id, verification_method: 'credit_card' },
    });
    expect(rows).toBe(1);
  });

  it("refuses another user's card check, a made-up id and a body without one", async () => {
    const owner = await signUp(t);
    const started = await t.request
      .post('/api/v1/users/verify/credit-card/setup')
      .set(auth(owner.token))
      .expect(201);
    stripe.confirmSetup(started.body.setup_intent_id as string, '4242424242424242');
    const thief = await signUp(t);
    const stolen = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(thief.token))
      .send({ setup_intent_id: started.body.setup_intent_id })
      .expect(404);
    expect(stolen.body.detail).toBe('Card check not found');
    await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(thief.token))
      .send({ setup_intent_id: 'seti_made_up' })
      .expect(404);
    const invalid = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(thief.token))
      .send({})
      .expect(422);
    expect(invalid.body.errors).toEqual([
      { path: 'setup_intent_id', message: 'setup_intent_id is required' },
    ]);
    const cardNumber = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(thief.token))
      .send({ setup_intent_id: '4242 4242 4242 4242' })
      .expect(422);
    expect(cardNumber.body.detail).toBe('setup_intent_id is not a card check id');
    // The owner's check is still open and still theirs.
    const mine = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(owner.token))
      .send({ setup_intent_id: started.body.setup_intent_id })
      .expect(201);
    expect(mine.body.status).toBe('approved');
  });

  it('finishes through POST /users/verify with method credit_card too', async () => {
    const { token } = await signUp(t);
    const started = await t.request
      .post('/api/v1/users/verify/credit-card/setup')
      .set(auth(token))
      .expect(201);
    stripe.confirmSetup(started.body.setup_intent_id as string, '4000008260000000');
    const answer = await t.request
      .post('/api/v1/users/verify')
      .set(auth(token))
      .send({ method: 'credit_card', setup_intent_id: started.body.setup_intent_id })
      .expect(201);
    expect(answer.body.status).toBe('approved');
  });

  it('answers 502 when Stripe is down, and the check can be finished afterwards', async () => {
    const { token } = await signUp(t);
    const started = await t.request
      .post('/api/v1/users/verify/credit-card/setup')
      .set(auth(token))
      .expect(201);
    stripe.confirmSetup(started.body.setup_intent_id as string, '4242424242424242');
    stripe.outage.remaining = 5;
    const down = await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(token))
      .send({ setup_intent_id: started.body.setup_intent_id })
      .expect(502);
    expect(down.body.code).toBe('verification.card_processor_error');
    stripe.outage.remaining = 0;
    await t.request
      .post('/api/v1/users/verify/credit-card')
      .set(auth(token))
      .send({ setup_intent_id: started.body.setup_intent_id })
      .expect(201);
  });
});

describe("the partner's SDK asking about a card-proven age", () => {
  it('answers verifyAge with method credit_card true once the user proved 18+ with a credit card', async () => {
    const user = await signUp(t);
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const { tokens } = await fullFlow(t, site, user);
    const key = await t.request
      .post('/api/v1/partners/api-keys')
      .set(auth(partner.token))
      .send({ environment: 'live' })
      .expect(201);
    const attestly = new Attestly({
      apiKey: key.body.api_key,
      environment: 'production',
      baseUrl: t.baseUrl,
    });
    const userId = tokens.claims()?.sub as string;
    const before = await attestly.verifyAge({ userId, method: 'credit_card' });
    expect(before).toMatchObject({
      verified: false,
      verify_url: expect.stringMatching(/method=credit_card$/),
    });

    expect((await cardCheck(user.token, '4242424242424242')).finished.body.status).toBe('approved');
    expect(await attestly.verifyAge({ userId, method: 'credit_card' })).toMatchObject({
      verified: true,
      method: 'credit_card',
      verify_url: null,
    });
    expect((await attestly.verifyAge({ userId })).verified).toBe(true);
    expect((await attestly.verifyAge({ userId, method: 'document' })).verified).toBe(false);
  });
});

describe('credit-card age check restricted to card countries', () => {
  let restricted: TestApp;
  beforeAll(async () => {
    restricted = await createTestApp({
      env: {
        STRIPE_SECRET_KEY: SECRET_KEY,
        ATTESTLY_STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
        ATTESTLY_STRIPE_API_URL: stripe.apiUrl,
        ATTESTLY_CARD_COUNTRIES: 'gb, ie',
      },
    });
  });
  afterAll(async () => {
    await restricted?.close();
  });

  it('accepts a credit card issued in a listed country and refuses one from elsewhere', async () => {
    expect(restricted.config.cardCheck?.countries).toEqual(['GB', 'IE']);
    for (const [number, status] of [
      ['4000008260000000', 'approved'],
      ['4242424242424242', 'rejected'],
    ] as const) {
      const { token } = await signUp(restricted);
      const started = await restricted.request
        .post('/api/v1/users/verify/credit-card/setup')
        .set(auth(token))
        .expect(201);
      stripe.confirmSetup(started.body.setup_intent_id as string, number);
      const answer = await restricted.request
        .post('/api/v1/users/verify/credit-card')
        .set(auth(token))
        .send({ setup_intent_id: started.body.setup_intent_id })
        .expect(201);
      expect(answer.body.status, number).toBe(status);
      if (status === 'rejected')
        expect(answer.body.message).toMatch(/Cards issued in US cannot prove an age/);
    }
  });
});
