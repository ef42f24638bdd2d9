import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, randomClientIp, type TestApp } from './helpers';
import {
  Browser,
  createSite,
  fullFlow,
  pkce,
  registerPartner,
  relyingParty,
  uidFrom,
  verifiedUser,
  type CreatedSite,
} from './oidc-helpers';

/**
 * Issue 15 items 1–3: ending a sign-in at Attestly (sign-out, password change or reset, account deletion, an
 * administrator's lock) ends the provider's browser sessions of that account in the database, so no browser keeps
 * receiving authorization codes; deletion revokes every grant and token at once; and a browser still signed in as
 * an account that is gone starts a fresh sign-in instead of failing.
 */
let t: TestApp;
let partner: Awaited<ReturnType<typeof registerPartner>>;
let site: CreatedSite;

beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  partner = await registerPartner(t);
  site = await createSite(t, partner.token);
});
afterAll(async () => {
  await t?.close();
});

/** A browser that also keeps every Set-Cookie line it received, to inspect cookie attributes. */
class RecordingBrowser extends Browser {
  setCookies: string[] = [];
  override async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await super.fetch(url, init);
    this.setCookies.push(...response.headers.getSetCookie());
    return response;
  }
}

async function authorizationUrl(options: { prompt?: string; scope?: string } = {}) {
  const config = await relyingParty(t, site);
  const { challenge } = pkce();
  return client.buildAuthorizationUrl(config, {
    redirect_uri: site.redirect_uris[0] as string,
    scope: options.scope ?? 'openid basic_info',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(options.prompt ? { prompt: options.prompt } : {}),
  }).href;
}

/**
 * Follows an authorization request in the browser. At the login screen it signs in with `signIn` (a password, or
 * the Attestly session's bearer token as "Continue with your Attestly account" does); at consent it grants all.
 * Returns where the provider finally sent the browser (the partner's callback, or an SPA screen when `stopAt`).
 */
async function follow(
  browser: Browser,
  url: string,
  signIn?: { token: string } | { email: string; password: string; rememberMe?: boolean },
  stopAt?: '/oauth/login',
): Promise<{ location: string; statuses: number[] }> {
  let location = url;
  const statuses: number[] = [];
  for (let hop = 0; hop < 12; hop += 1) {
    if (!location.startsWith(t.baseUrl)) return { location, statuses };
    const path = new URL(location).pathname;
    if (path === '/oauth/login') {
      if (stopAt === path || !signIn) return { location, statuses };
      const uid = uidFrom(location);
      const result =
        'token' in signIn
          ? await browser.json(
              `${t.baseUrl}/api/v1/oauth/interactions/${uid}/login`,
              'POST',
              undefined,
              signIn.token,
            )
          : await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}/login`, 'POST', signIn);
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      location = String(result.body.redirect_to);
      continue;
    }
    if (path === '/oauth/consent') {
      const uid = uidFrom(location);
      const details = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}`, 'GET');
      expect(details.status, JSON.stringify(details.body)).toBe(200);
      const result = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}/consent`, 'POST', {
        scopes: (details.body.scopes as Array<{ scope: string }>).map((scope) => scope.scope),
      });
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      location = String(result.body.redirect_to);
      continue;
    }
    const response = await browser.fetch(location);
    statuses.push(response.status);
    const next = response.headers.get('location');
    if (!next) return { location, statuses };
    location = new URL(next, location).href;
  }
  throw new Error('too many redirects');
}

/** prompt=none: does this browser still get a code without signing in? */
async function silentAuthorization(browser: Browser) {
  const { location } = await follow(browser, await authorizationUrl({ prompt: 'none' }));
  const params = new URL(location).searchParams;
  return { code: params.get('code'), error: params.get('error') };
}

async function apiSignIn(email: string, password: string, rememberMe = false) {
  const response = await t.request
    .post('/api/v1/users/login')
    .set('X-Forwarded-For', randomClientIp())
    .send({ email, password, rememberMe })
    .expect(200);
  return response.body.access_token as string;
}

function introspect(token: string) {
  return fetch(`${t.baseUrl}/oauth2/introspect`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${site.client_id}:${site.client_secret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ token }),
  }).then(async (response) => (await response.json()) as { active: boolean });
}

describe('ending a sign-in ends the provider session of that account', () => {
  it('signing out of Attestly stops the browser from receiving codes, prompt=none included', async () => {
    const user = await verifiedUser(t);
    const token = await apiSignIn(user.email, user.password);
    const browser = new Browser();
    const first = await follow(browser, await authorizationUrl(), { token });
    expect(new URL(first.location).searchParams.get('code')).toBeTruthy();
    expect((await silentAuthorization(browser)).code).toBeTruthy();

    await t.request.post('/api/v1/users/logout').set('Authorization', `Bearer ${token}`).expect(204);

    expect(await silentAuthorization(browser)).toEqual({ code: null, error: 'login_required' });
    // An interactive request asks to sign in again instead of going straight to the partner.
    const again = await follow(browser, await authorizationUrl(), undefined, '/oauth/login');
    expect(new URL(again.location).pathname).toBe('/oauth/login');
  });

  it('a password change ends every browser’s provider session; “sign out everywhere” also ends refresh tokens', async () => {
    const user = await verifiedUser(t);
    const browser = new Browser();
    await follow(browser, await authorizationUrl(), user);
    const { tokens } = await fullFlow(t, site, user, {
      scope: 'openid basic_info offline_access',
      prompt: 'consent',
    });
    expect(tokens.refresh_token).toBeTruthy();
    const token = await apiSignIn(user.email, user.password);

    await t.request
      .post('/api/v1/users/change-password')
      .set('Authorization', `Bearer ${token}`)
      .send({ current_password: user.password, new_password: 'a new password 1', sign_out_everywhere: true })
      .expect(200);

    expect(await silentAuthorization(browser)).toEqual({ code: null, error: 'login_required' });
    const refresh = await fetch(`${t.baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${site.client_id}:${site.client_secret}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token as string,
      }),
    });
    expect(refresh.status).toBe(400);
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant');
    // The session that made the change stays signed in.
    await t.request.get('/api/v1/users/profile').set('Authorization', `Bearer ${token}`).expect(200);
  });

  it('a password change without “sign out everywhere” keeps the partners’ refresh tokens but ends browser sessions', async () => {
    const user = await verifiedUser(t);
    const { tokens, browser } = await fullFlow(t, site, user, {
      scope: 'openid basic_info offline_access',
      prompt: 'consent',
    });
    const token = await apiSignIn(user.email, user.password);
    await t.request
      .post('/api/v1/users/change-password')
      .set('Authorization', `Bearer ${token}`)
      .send({ current_password: user.password, new_password: 'a new password 2' })
      .expect(200);
    expect(await silentAuthorization(browser)).toEqual({ code: null, error: 'login_required' });
    expect((await introspect(tokens.refresh_token as string)).active).toBe(true);
  });

  it('a password reset ends the provider sessions', async () => {
    const user = await verifiedUser(t);
    const browser = new Browser();
    await follow(browser, await authorizationUrl(), user);
    expect((await silentAuthorization(browser)).code).toBeTruthy();

    await t.request
      .post('/api/v1/users/forgot-password')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email: user.email })
      .expect(202);
    const mail = await t.smtp.waitFor(user.email, /Reset your Attestly password/);
    const resetToken = decodeURIComponent(/reset-password\?token=(\S+)/.exec(mail.text)?.[1] ?? '');
    await t.request
      .post('/api/v1/users/reset-password')
      .send({ token: resetToken, new_password: 'brand new password' })
      .expect(200);

    expect(await silentAuthorization(browser)).toEqual({ code: null, error: 'login_required' });
  });

  it('the provider session follows the Attestly session’s remember-me: no persistent cookie without it', async () => {
    const user = await verifiedUser(t);
    // The last _session cookie the provider set: with an Expires attribute it outlives the browser.
    const persistent = (browser: RecordingBrowser) =>
      browser.setCookies
        .filter((line) => /^_session=/.test(line) && !/^_session=;/.test(line))
        .map((line) => /expires=/i.test(line))
        .slice(-1);

    const transientBrowser = new RecordingBrowser();
    await follow(transientBrowser, await authorizationUrl(), {
      token: await apiSignIn(user.email, user.password),
    });
    expect(persistent(transientBrowser)).toEqual([false]);

    const rememberedBrowser = new RecordingBrowser();
    await follow(rememberedBrowser, await authorizationUrl(), {
      token: await apiSignIn(user.email, user.password, true),
    });
    expect(persistent(rememberedBrowser)).toEqual([true]);
  });
});

describe('account deletion', () => {
  it('revokes every grant and token at once: introspection and validate-token answer inactive', async () => {
    const user = await verifiedUser(t);
    const { tokens } = await fullFlow(t, site, user, {
      scope: 'openid basic_info offline_access',
      prompt: 'consent',
    });
    const accessToken = tokens.access_token;
    expect((await introspect(accessToken)).active).toBe(true);
    const token = await apiSignIn(user.email, user.password);

    await t.request
      .delete('/api/v1/users/account')
      .set('Authorization', `Bearer ${token}`)
      .send({ password: user.password })
      .expect(204);

    expect((await introspect(accessToken)).active).toBe(false);
    expect((await introspect(tokens.refresh_token as string)).active).toBe(false);
    const validated = await t.request
      .post('/api/v1/partners/validate-token')
      .set('Authorization', `Bearer ${partner.token}`)
      .send({ token: accessToken })
      .expect(200);
    expect(validated.body.active).toBe(false);
    const grants = await t.db.models.OAuthAuthorization.findAll({ where: { user_id: user.user.id } });
    expect(grants.length).toBeGreaterThan(0);
    expect(grants.every((grant) => grant.revoked_at !== null)).toBe(true);
    const left = await t.db.models.OidcPayload.count({ where: { account_id: user.user.id } as never });
    expect(left).toBe(0);
  });

  it('sends a browser still signed in as the deleted account to a fresh sign-in, never a 500', async () => {
    const user = await verifiedUser(t);
    const browser = new Browser();
    await follow(browser, await authorizationUrl(), user);
    const token = await apiSignIn(user.email, user.password);
    await t.request
      .delete('/api/v1/users/account')
      .set('Authorization', `Bearer ${token}`)
      .send({ password: user.password })
      .expect(204);

    const { location, statuses } = await follow(browser, await authorizationUrl(), undefined, '/oauth/login');
    expect(statuses.every((status) => status < 500)).toBe(true);
    expect(new URL(location).pathname).toBe('/oauth/login');
    expect(await silentAuthorization(browser)).toEqual({ code: null, error: 'login_required' });
  });

  it('also when the account went away without ending its sessions (a disabled or erased row)', async () => {
    const user = await verifiedUser(t);
    const browser = new Browser();
    await follow(browser, await authorizationUrl(), user);
    // As if done by hand in the database: the provider session is still there.
    await t.db.models.User.update(
      { deleted_at: t.clock.now(), is_active: false },
      { where: { id: user.user.id } },
    );

    const { location, statuses } = await follow(browser, await authorizationUrl(), undefined, '/oauth/login');
    expect(
      statuses.every((status) => status < 500),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(new URL(location).pathname).toBe('/oauth/login');
    const uid = uidFrom(location);
    const details = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}`, 'GET');
    expect(details.status).toBe(200);
    expect(details.body.user).toBeNull();
  });
});
