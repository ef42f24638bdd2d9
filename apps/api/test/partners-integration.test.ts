import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from './helpers';
import { Browser, createSite, fullFlow, pkce, registerPartner, uidFrom, verifiedUser } from './oidc-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('POST /partners/sites/{id}/integration-test', () => {
  it('passes a well-configured site, each check named and timed, through a real PKCE authorization request', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const { body } = await t.request
      .post(`/api/v1/partners/sites/${site.id}/integration-test`)
      .set(auth(partner.token))
      .send({})
      .expect(200);
    expect(body.success).toBe(true);
    expect(body.message).toBe('Integration test passed');
    expect(body.checks.map((check: { name: string }) => check.name)).toEqual([
      'Site is active',
      'Redirect URIs',
      'Scopes',
      'Client authentication',
      'Authorization request (PKCE S256)',
    ]);
    for (const check of body.checks) {
      expect(check.ok).toBe(true);
      expect(check.duration_ms).toBeGreaterThanOrEqual(0);
    }
    expect(body.checks[4].detail).toMatch(/started the sign-in/);
    expect(body.details).toMatchObject({
      domain: 'shop.example.com',
      redirectUri: 'https://shop.example.com/callback',
      scopes: site.allowed_scopes,
      responseTime: expect.any(Number),
    });
  });

  it('fails a broken site with the reason: deactivated, or a redirect URI the provider refuses', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    await t.request
      .put(`/api/v1/partners/sites/${site.id}`)
      .set(auth(partner.token))
      .send({ is_active: false })
      .expect(200);
    const { body } = await t.request
      .post(`/api/v1/partners/sites/${site.id}/integration-test`)
      .set(auth(partner.token))
      .send({})
      .expect(200);
    expect(body.success).toBe(false);
    expect(body.error).toBe('Integration test failed');
    expect(body.message).toMatch(/^Integration test failed: Site is active: The site is deactivated/);
    // The provider itself refuses the request for an inactive client: the last check fails too, for real.
    expect(body.checks[4]).toMatchObject({ ok: false });

    // A row broken behind the API's back (stored redirect URI on another domain, confidential without secret).
    const broken = await createSite(t, partner.token);
    await t.db.models.Site.update(
      { redirect_uris: ['https://evil.example.net/cb'], client_secret_hash: null },
      { where: { id: broken.id } },
    );
    const second = await t.request
      .post(`/api/v1/partners/sites/${broken.id}/integration-test`)
      .set(auth(partner.token))
      .send({})
      .expect(200);
    expect(second.body.success).toBe(false);
    const byName = Object.fromEntries(
      second.body.checks.map((check: { name: string; ok: boolean; detail: string }) => [check.name, check]),
    );
    expect(byName['Redirect URIs']).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/not on shop\.example\.com/),
    });
    expect(byName['Client authentication']).toMatchObject({ ok: false });
  });

  it('is refused for other partners, user tokens and API keys; a foreign redirect URI is bad input', async () => {
    const owner = await registerPartner(t);
    const other = await registerPartner(t);
    const site = await createSite(t, owner.token);
    const url = `/api/v1/partners/sites/${site.id}/integration-test`;
    await t.request.post(url).set(auth(other.token)).send({}).expect(404);
    const user = await signUp(t);
    await t.request.post(url).set(auth(user.token)).send({}).expect(401);
    const key = await t.request
      .post('/api/v1/partners/api-keys')
      .set(auth(owner.token))
      .send({ environment: 'live' })
      .expect(201);
    await t.request.post(url).set('X-API-Key', key.body.api_key).send({}).expect(401);
    const bad = await t.request
      .post(url)
      .set(auth(owner.token))
      .send({ redirect_uri: 'https://elsewhere.example.com/cb' })
      .expect(422);
    expect(bad.body.errors[0].path).toBe('redirect_uri');
  });
});

describe('trustworthy sites', () => {
  it('refuses redirect URIs outside the declared domain and loopback URIs outside the sandbox, storing nothing', async () => {
    const partner = await registerPartner(t);
    const before = await t.db.models.Site.count();
    const outside = await t.request
      .post('/api/v1/partners/sites')
      .set(auth(partner.token))
      .send({
        site_name: 'X',
        domain: 'shop.example.com',
        redirect_uris: ['https://attacker.example.net/cb'],
      })
      .expect(422);
    expect(outside.body.errors[0]).toEqual({
      path: 'redirect_uris',
      message:
        'Redirect URI https://attacker.example.net/cb is not on shop.example.com or one of its subdomains',
    });
    // A look-alike suffix is not a subdomain.
    await t.request
      .post('/api/v1/partners/sites')
      .set(auth(partner.token))
      .send({ site_name: 'X', domain: 'example.com', redirect_uris: ['https://badexample.com/cb'] })
      .expect(422);
    const loopback = await t.request
      .post('/api/v1/partners/sites')
      .set(auth(partner.token))
      .send({ site_name: 'X', domain: 'shop.example.com', redirect_uris: ['http://127.0.0.1:3000/cb'] })
      .expect(422);
    expect(loopback.body.detail).toBe(
      'Loopback redirect URIs (localhost, 127.0.0.1) are allowed for sandbox sites only',
    );
    await t.request
      .post('/api/v1/partners/sites')
      .set(auth(partner.token))
      .send({ site_name: 'X', domain: 'shop.example.com', redirect_uris: ['not a url'] })
      .expect(422);
    expect(await t.db.models.Site.count()).toBe(before);
    const sandbox = await t.request
      .post('/api/v1/partners/sites')
      .set(auth(partner.token))
      .send({
        site_name: 'Dev',
        domain: 'shop.example.com',
        redirect_uris: ['http://127.0.0.1:3000/cb', 'https://shop.example.com/cb'],
        sandbox: true,
      })
      .expect(201);
    expect(sandbox.body.sandbox).toBe(true);
    // Moving the domain away from the registered URIs is refused too.
    await t.request
      .put(`/api/v1/partners/sites/${sandbox.body.id}`)
      .set(auth(partner.token))
      .send({ domain: 'other.example.org' })
      .expect(422);
  });

  it('signs people in to a site whose redirect URIs span several hosts of its domain (derived sector identifier)', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token, {
      domain: 'example.com',
      redirect_uris: ['https://shop.example.com/cb', 'https://app.example.com/cb'],
    });
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const first = await fullFlow(t, site, user);
    const claims = first.tokens.claims();
    expect(claims?.sub).toMatch(/^[0-9a-f]{64}$/);
    const second = await fullFlow(t, { ...site, redirect_uris: ['https://app.example.com/cb'] }, user);
    // One partner, one pairwise subject for this user, whichever host the sign-in returned to.
    expect(second.tokens.claims()?.sub).toBe(claims?.sub);
  });

  it('names the real destination host on the sign-in screen', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token, {
      domain: 'example.com',
      redirect_uris: ['https://shop.example.com/cb', 'https://app.example.com/cb'],
    });
    const browser = new Browser();
    const start = await browser.fetch(authorizeUrl(site.client_id, 'https://app.example.com/cb'));
    const uid = uidFrom(new URL(start.headers.get('location') as string, t.baseUrl).href);
    const details = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}`, 'GET');
    expect(details.body.site).toMatchObject({ domain: 'example.com', redirect_host: 'app.example.com' });
  });
});

function authorizeUrl(clientId: string, redirectUri: string) {
  const url = new URL(`${t.baseUrl}/oauth2/authorize`);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid basic_info',
    state: 'state-1',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

describe('the sign-in path for an unknown or inactive client', () => {
  it('sends a browser to the styled error screen and answers other callers with JSON', async () => {
    const page = await fetch(authorizeUrl('atc_no_such_client', 'https://shop.example.com/cb'), {
      redirect: 'manual',
      headers: { Accept: 'text/html,application/xhtml+xml' },
    });
    expect(page.status).toBe(303);
    const location = new URL(page.headers.get('location') as string);
    expect(location.pathname).toBe('/oauth/error');
    expect(location.searchParams.get('error')).toBe('invalid_client');
    const api = await fetch(authorizeUrl('atc_no_such_client', 'https://shop.example.com/cb'), {
      redirect: 'manual',
    });
    expect(api.status).toBe(400);
    expect(await api.json()).toMatchObject({ error: 'invalid_client' });
  });
});
