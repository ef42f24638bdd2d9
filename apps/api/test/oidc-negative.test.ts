import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createAdmin } from './admin-helpers';
import { createTestApp, type TestApp } from './helpers';
import {
  Browser,
  authorizeInBrowser,
  createSite,
  fullFlow,
  pkce,
  registerPartner,
  relyingParty,
  uidFrom,
  verifiedUser,
  type CreatedSite,
} from './oidc-helpers';

let t: TestApp;
let partner: Awaited<ReturnType<typeof registerPartner>>;
let site: CreatedSite;

beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  partner = await registerPartner(t);
  site = await createSite(t, partner.token, { allowed_scopes: ['basic_info', 'AGE_18'] });
});
afterAll(async () => {
  await t?.close();
});

function authorizeUrl(target: CreatedSite, params: Record<string, string | undefined>): string {
  const url = new URL(`${t.baseUrl}/oauth2/authorize`);
  const { challenge } = pkce();
  const all: Record<string, string | undefined> = {
    client_id: target.client_id,
    redirect_uri: target.redirect_uris[0],
    response_type: 'code',
    scope: 'openid basic_info',
    state: 'state-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [key, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(key, value);
  return url.href;
}

async function redirectOf(url: string) {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), response };
}

describe('authorization request errors', () => {
  it('answers an unregistered redirect_uri with JSON and never redirects to it', async () => {
    const { status, location, response } = await redirectOf(
      authorizeUrl(site, { redirect_uri: 'https://evil.example.com/cb' }),
    );
    expect(status).toBe(400);
    expect(location).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('rejects a request without PKCE, back at the client with invalid_request', async () => {
    const { location } = await redirectOf(
      authorizeUrl(site, { code_challenge: undefined, code_challenge_method: undefined }),
    );
    const callback = new URL(location as string);
    expect(callback.origin + callback.pathname).toBe(site.redirect_uris[0]);
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('state')).toBe('state-123');
  });

  it('rejects the plain PKCE method', async () => {
    const { location } = await redirectOf(
      authorizeUrl(site, { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }),
    );
    const callback = new URL(location as string);
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('error_description')).toMatch(/code_challenge_method/);
  });

  it('rejects a scope the site is not allowed to ask for', async () => {
    const { location } = await redirectOf(authorizeUrl(site, { scope: 'openid basic_info AGE_21' }));
    expect(new URL(location as string).searchParams.get('error')).toBe('invalid_scope');
  });

  it('treats an inactive site as an unknown client, at once after the change', async () => {
    const inactive = await createSite(t, partner.token, {
      site_name: 'Paused',
      redirect_uris: ['https://paused.example.com/cb'],
    });
    // Served (and so cached) while active: the next request after the change must not see the cached client.
    const before = await redirectOf(authorizeUrl(inactive, {}));
    expect(before.status).toBe(303);
    expect(new URL(before.location as string).pathname).toBe('/oauth/login');
    await t.request
      .put(`/api/v1/partners/sites/${inactive.id}`)
      .set('Authorization', `Bearer ${partner.token}`)
      .send({ is_active: false })
      .expect(200);
    const { status, response } = await redirectOf(authorizeUrl(inactive, {}));
    expect(status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('treats the sites of a partner suspended in the back office as unknown clients, at once', async () => {
    const other = await registerPartner(t, { company_name: 'Soon Suspended' });
    const target = await createSite(t, other.token, {
      site_name: 'Suspended shop',
      redirect_uris: ['https://suspended.example.com/cb'],
    });
    const before = await redirectOf(authorizeUrl(target, {}));
    expect(before.status).toBe(303);
    const admin = await createAdmin(t);
    await t.request
      .post(`/api/v1/admin/partners/${other.partner.id}/suspend`)
      .set('Authorization', `Bearer ${admin.token}`)
      .set('X-Forwarded-For', admin.ip)
      .send({ reason: 'chargebacks', notify_partner: false })
      .expect(200);
    const { status, response } = await redirectOf(authorizeUrl(target, {}));
    expect(status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('returns access_denied with the spec message when the user denies', async () => {
    const user = await verifiedUser(t, { proven_min_age: 20 });
    const { callback } = await authorizeInBrowser(t, new Browser(), authorizeUrl(site, {}), {
      login: user,
      consent: 'deny',
    });
    const url = new URL(callback);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('error_description')).toBe('User denied the request');
    expect(url.searchParams.get('state')).toBe('state-123');
    const denied = await t.db.models.AuditLog.findOne({
      where: { event_type: 'oauth.consent_denied', user_id: user.user.id },
    });
    expect(denied?.partner_id).toBe(partner.partner.id);
  });

  it('answers unknown provider routes with JSON', async () => {
    const response = await t.request.get('/oauth2/nothing-here').expect(404);
    expect(response.body.error).toBe('invalid_request');
  });
});

describe('interaction API', () => {
  async function startInteraction() {
    const browser = new Browser();
    const response = await browser.fetch(authorizeUrl(site, {}));
    return {
      browser,
      uid: uidFrom(response.headers.get('location') as string),
      location: response.headers.get('location') as string,
    };
  }

  it('sends the browser to the SPA login screen and describes the request', async () => {
    const { browser, uid, location } = await startInteraction();
    expect(location).toBe(`${t.baseUrl}/oauth/login?uid=${uid}`);
    const details = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}`, 'GET');
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({
      uid,
      prompt: 'login',
      site: {
        client_id: site.client_id,
        site_name: 'Acme Shop',
        domain: 'shop.example.com',
        partner_name: 'Acme Games',
      },
      user: null,
    });
  });

  it('refuses an interaction from a browser that did not start it', async () => {
    const { uid } = await startInteraction();
    const stranger = new Browser();
    const details = await stranger.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}`, 'GET');
    expect(details.status).toBe(404);
    const user = await verifiedUser(t);
    const login = await stranger.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}/login`, 'POST', {
      email: user.email,
      password: user.password,
    });
    expect(login.status).toBe(404);
  });

  it('uses the sign-in rules of /login: wrong password, then lockout', async () => {
    const user = await verifiedUser(t);
    const { browser, uid } = await startInteraction();
    const url = `${t.baseUrl}/api/v1/oauth/interactions/${uid}/login`;
    const missing = await browser.json(url, 'POST', { email: user.email });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toBe('Password is required');
    for (let attempt = 1; attempt < 5; attempt += 1) {
      const wrong = await browser.json(url, 'POST', { email: user.email, password: 'wrong password' });
      expect(wrong.status).toBe(401);
      expect(wrong.body.detail).toBe('Invalid email or password');
    }
    const locked = await browser.json(url, 'POST', { email: user.email, password: 'wrong password' });
    expect(locked.status).toBe(429);
  });

  it('signs in with an existing Attestly session instead of a password', async () => {
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const { browser, uid } = await startInteraction();
    const login = await browser.json(
      `${t.baseUrl}/api/v1/oauth/interactions/${uid}/login`,
      'POST',
      {},
      user.token,
    );
    expect(login.status).toBe(200);
    expect(String(login.body.redirect_to)).toContain(`/oauth2/authorize/${uid}`);
  });

  it('requires basic_info on consent and flags scopes the user has not proven', async () => {
    const adultSite = await createSite(t, partner.token, {
      site_name: 'Bar',
      redirect_uris: ['https://bar.example.com/cb'],
    });
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const browser = new Browser();
    const start = await browser.fetch(
      authorizeUrl(adultSite, { scope: 'openid basic_info AGE_21 location_verification' }),
    );
    const loginUid = uidFrom(start.headers.get('location') as string);
    const login = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${loginUid}/login`, 'POST', {
      email: user.email,
      password: user.password,
    });
    const resumed = await browser.fetch(String(login.body.redirect_to));
    const consentLocation = resumed.headers.get('location') as string;
    expect(consentLocation).toMatch(/\/oauth\/consent\?uid=/);
    const uid = uidFrom(consentLocation);
    const details = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}`, 'GET');
    expect(details.body.prompt).toBe('consent');
    expect(details.body.user).toEqual({ email: user.email, full_name: 'Test User' });
    expect(details.body.unproven_scopes).toEqual(['AGE_21', 'location_verification']);
    expect(details.body.verify_url).toBe(
      `/verification?return_to=${encodeURIComponent(`/oauth/consent?uid=${uid}`)}`,
    );
    const scopes = details.body.scopes as Array<{
      scope: string;
      required: boolean;
      proven: boolean;
      title: string;
    }>;
    expect(scopes.map((scope) => [scope.scope, scope.required, scope.proven])).toEqual([
      ['basic_info', true, true],
      ['AGE_21', false, false],
      ['location_verification', false, false],
    ]);
    expect(scopes[1]?.title).toBe('Age 21 or over');
    const refused = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}/consent`, 'POST', {
      scopes: ['AGE_21'],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toBe('You must grant at least basic information access');
    // Granting only basic_info completes the request; the declined scopes are not in the token.
    const granted = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}/consent`, 'POST', {
      scopes: ['basic_info'],
    });
    expect(granted.status).toBe(200);
    const final = await browser.fetch(String(granted.body.redirect_to));
    expect(new URL(final.headers.get('location') as string).searchParams.get('code')).toBeTruthy();
    const row = await t.db.models.OAuthAuthorization.findOne({
      where: { user_id: user.user.id, site_id: adultSite.id },
    });
    expect(row?.scopes).toEqual(['basic_info']);
  });
});

describe('token endpoint errors', () => {
  async function codeFor(target: CreatedSite, user: { email: string; password: string }) {
    const { verifier, challenge } = pkce();
    const browser = new Browser();
    const { callback } = await authorizeInBrowser(
      t,
      browser,
      authorizeUrl(target, { code_challenge: challenge }),
      { login: user },
    );
    return { code: new URL(callback).searchParams.get('code') as string, verifier };
  }

  async function exchange(
    target: CreatedSite,
    code: string,
    verifier: string,
    secret = target.client_secret,
  ) {
    return fetch(`${t.baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${target.client_id}:${secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: target.redirect_uris[0] as string,
        code_verifier: verifier,
      }),
    });
  }

  it('rejects a wrong code verifier', async () => {
    const user = await verifiedUser(t);
    const { code } = await codeFor(site, user);
    const response = await exchange(site, code, pkce().verifier);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('rejects a wrong client secret', async () => {
    const user = await verifiedUser(t);
    const { code, verifier } = await codeFor(site, user);
    const response = await exchange(site, code, verifier, 'atcs_not-the-secret');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('rejects a reused code and revokes the tokens issued with it', async () => {
    const user = await verifiedUser(t);
    const { code, verifier } = await codeFor(site, user);
    const first = await exchange(site, code, verifier);
    expect(first.status).toBe(200);
    const { access_token: accessToken } = (await first.json()) as { access_token: string };
    const config = await relyingParty(t, site);
    expect((await client.tokenIntrospection(config, accessToken)).active).toBe(true);
    const second = await exchange(site, code, verifier);
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await client.tokenIntrospection(config, accessToken)).active).toBe(false);
  });

  it('works end to end after all those failures (sanity)', async () => {
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const { tokens } = await fullFlow(t, site, user);
    expect(tokens.access_token).toBeTruthy();
  });
});
