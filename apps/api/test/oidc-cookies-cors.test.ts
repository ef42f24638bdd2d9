import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { createSite, fullFlow, registerPartner, verifiedUser, type CreatedSite } from './oidc-helpers';

/** Issue 15 items 5 and 6: Secure cookies behind a TLS proxy, and CORS only for registered redirect origins. */
describe('provider cookies when the public URL is https', () => {
  let t: TestApp;
  let site: CreatedSite;
  beforeAll(async () => {
    // TLS ends at a proxy the app does not trust: every request reaches it as plain HTTP.
    t = await createTestApp({
      withOidc: true,
      env: { ATTESTLY_PUBLIC_URL: 'https://id.example.org', ATTESTLY_TRUST_PROXY: 'false' },
    });
    const partner = await registerPartner(t);
    site = await createSite(t, partner.token);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('marks every provider cookie Secure even though the request arrived over http', async () => {
    const response = await t.request.get('/oauth2/authorize').query({
      client_id: site.client_id,
      response_type: 'code',
      scope: 'openid basic_info',
      redirect_uri: site.redirect_uris[0],
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    expect(response.status).toBe(303);
    const cookies = response.headers['set-cookie'] as unknown as string[];
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie, cookie).toMatch(/;\s*secure/i);
  });

  it('warns at start-up that proxy trust is off while the public URL is https', () => {
    const warning = t.logs.lines.find(
      (line) => line.level === 40 && /ATTESTLY_TRUST_PROXY is off/.test(String(line.msg)),
    );
    expect(warning).toBeDefined();
  });
});

describe('CORS on the token and userinfo endpoints', () => {
  let t: TestApp;
  let site: CreatedSite;
  beforeAll(async () => {
    t = await createTestApp({ withOidc: true });
    const partner = await registerPartner(t);
    site = await createSite(t, partner.token, {
      redirect_uris: ['https://shop.example.com/callback'],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const basic = () => `Basic ${Buffer.from(`${site.client_id}:${site.client_secret}`).toString('base64')}`;

  it('answers the registered redirect origin and refuses any other origin at the token endpoint', async () => {
    const allowed = await t.request
      .post('/oauth2/token')
      .set('Origin', 'https://shop.example.com')
      .set('Authorization', basic())
      .type('form')
      .send({ grant_type: 'authorization_code', code: 'nope', code_verifier: 'x'.repeat(43) });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example.com');

    const foreign = await t.request
      .post('/oauth2/token')
      .set('Origin', 'https://evil.example')
      .set('Authorization', basic())
      .type('form')
      .send({ grant_type: 'authorization_code', code: 'nope', code_verifier: 'x'.repeat(43) });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe('invalid_request');
  });

  it('serves userinfo cross-origin only to the client’s own origin', async () => {
    const user = await verifiedUser(t);
    const { tokens } = await fullFlow(t, site, user);
    const allowed = await t.request
      .get('/oauth2/userinfo')
      .set('Origin', 'https://shop.example.com')
      .set('Authorization', `Bearer ${tokens.access_token}`);
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example.com');

    const foreign = await t.request
      .get('/oauth2/userinfo')
      .set('Origin', 'https://evil.example')
      .set('Authorization', `Bearer ${tokens.access_token}`);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.status).toBe(400);
    expect(foreign.body.sub).toBeUndefined();
  });
});
