import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, randomClientIp, type TestApp } from './helpers';
import { createSite, pkce } from './oidc-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    withOidc: true,
    env: { ATTESTLY_PARTNER_INITIAL_STATUS: 'pending_verification' },
  });
});
afterAll(async () => {
  await t?.close();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const tokenIn = (text: string, path: string) => {
  const match = new RegExp(`${path}\\?token=([^\\s]+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${path} link in ${text}`);
  return decodeURIComponent(match[1]);
};

async function register(email: string) {
  const ip = randomClientIp();
  await t.request
    .post('/api/v1/partners/register')
    .set('X-Forwarded-For', ip)
    .send({ email, password: 'partner password 1', company_name: 'Pending Ltd' })
    .expect(201);
  const login = await t.request
    .post('/api/v1/partners/login')
    .set('X-Forwarded-For', ip)
    .send({ email, password: 'partner password 1' })
    .expect(200);
  return { token: login.body.access_token as string, partner: login.body.partner };
}

async function authorizeStatus(site: { client_id: string; redirect_uris: string[] }) {
  const url = new URL(`${t.baseUrl}/oauth2/authorize`);
  url.search = new URLSearchParams({
    client_id: site.client_id,
    redirect_uri: site.redirect_uris[0] as string,
    response_type: 'code',
    scope: 'openid basic_info',
    state: 's',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
  }).toString();
  const answer = await fetch(url, { redirect: 'manual' });
  return { status: answer.status, location: answer.headers.get('location') };
}

describe('partner e-mail verification', () => {
  it('starts pending (operator setting), mails a link, and activates the partner and its sites at once', async () => {
    const { token, partner } = await register('pending@example.com');
    expect(partner).toMatchObject({ status: 'pending_verification', email_verified: false });
    const site = await createSite(t, token);
    // A pending partner's site is not a client yet.
    expect((await authorizeStatus(site)).status).toBe(400);
    const mail = await t.smtp.waitFor('pending@example.com', /Confirm your e-mail address/);
    const link = tokenIn(mail.text, '/partner/verify-email');
    const verified = await t.request.post('/api/v1/partners/verify-email').send({ token: link }).expect(200);
    expect(verified.body.partner).toMatchObject({ status: 'active', email_verified: true });
    const after = await authorizeStatus(site);
    expect(after.status).toBe(303);
    expect(new URL(after.location as string).pathname).toBe('/oauth/login');
    // Used links are spent; nonsense is refused the same way.
    for (const bad of [link, 'nonsense']) {
      const refused = await t.request.post('/api/v1/partners/verify-email').send({ token: bad }).expect(400);
      expect(refused.body.detail).toBe('This verification link is invalid or has expired');
    }
    await t.request.post('/api/v1/partners/send-email-verification').set(auth(token)).expect(409);
  });

  it('never lifts a suspension, and a suspended partner is refused everywhere', async () => {
    const { token, partner } = await register('suspended@example.com');
    const site = await createSite(t, token);
    const mail = await t.smtp.waitFor('suspended@example.com', /Confirm your e-mail address/);
    await t.db.models.Partner.update({ status: 'suspended' }, { where: { id: partner.id } });
    await t.services.partners.forgetPartnerClients(partner.id);
    const verified = await t.request
      .post('/api/v1/partners/verify-email')
      .send({ token: tokenIn(mail.text, '/partner/verify-email') })
      .expect(200);
    expect(verified.body.partner.status).toBe('suspended');
    expect((await authorizeStatus(site)).status).toBe(400);
    await t.request.get('/api/v1/partners/stats').set(auth(token)).expect(403);
    const login = await t.request
      .post('/api/v1/partners/login')
      .send({ email: 'suspended@example.com', password: 'partner password 1' })
      .expect(403);
    expect(login.body.detail).toBe('This partner account has been suspended. Please contact support.');
  });

  it('resends the link on request, within a budget', async () => {
    const { token } = await register('resend@example.com');
    await t.smtp.waitFor('resend@example.com', /Confirm your e-mail address/);
    const answer = await t.request
      .post('/api/v1/partners/send-email-verification')
      .set(auth(token))
      .expect(200);
    expect(answer.body.message).toBe('Verification email sent. Please check your inbox.');
    await t.request.post('/api/v1/partners/send-email-verification').expect(401);
  });
});

describe('partner password reset', () => {
  it('answers the same for unknown addresses, resets once, ends sessions and lets the partner sign in', async () => {
    const { token } = await register('reset@example.com');
    const unknown = await t.request
      .post('/api/v1/partners/forgot-password')
      .send({ email: 'nobody@example.com' })
      .expect(202);
    const known = await t.request
      .post('/api/v1/partners/forgot-password')
      .send({ email: 'reset@example.com' })
      .expect(202);
    expect(known.body).toEqual(unknown.body);
    const mail = await t.smtp.waitFor('reset@example.com', /Reset the password/);
    const link = tokenIn(mail.text, '/partner/reset-password');
    await t.request
      .post('/api/v1/partners/reset-password')
      .send({ token: link, new_password: 'short' })
      .expect(422);
    await t.request
      .post('/api/v1/partners/reset-password')
      .send({ token: link, new_password: 'a brand new password' })
      .expect(200);
    // The old session is over; the old password no longer works; the new one does.
    await t.request.get('/api/v1/partners/profile').set(auth(token)).expect(401);
    await t.request
      .post('/api/v1/partners/login')
      .send({ email: 'reset@example.com', password: 'partner password 1' })
      .expect(401);
    const login = await t.request
      .post('/api/v1/partners/login')
      .send({ email: 'reset@example.com', password: 'a brand new password' })
      .expect(200);
    // Receiving the reset mail proves the address.
    expect(login.body.partner.email_verified).toBe(true);
    await t.request
      .post('/api/v1/partners/reset-password')
      .send({ token: link, new_password: 'another new password' })
      .expect(400);
  });

  it('resets a password once when two requests race with the same link', async () => {
    await register('race@example.com');
    await t.request.post('/api/v1/partners/forgot-password').send({ email: 'race@example.com' }).expect(202);
    const mail = await t.smtp.waitFor('race@example.com', /Reset the password/);
    const link = tokenIn(mail.text, '/partner/reset-password');
    const answers = await Promise.all(
      ['first new password', 'second new password'].map((password) =>
        t.request.post('/api/v1/partners/reset-password').send({ token: link, new_password: password }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
  });
});
