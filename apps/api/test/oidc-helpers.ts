import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import * as client from 'openid-client';
import type { TestApp } from './helpers';
import { signUp } from './helpers';
import { CookieJar } from './http';

/**
 * A partner account, signed in. New partners start `pending_verification` (their sites refuse sign-ins) until they
 * open the mailed link; with the app's SMTP capture at hand this does what the partner does. Servers started without
 * one (other processes) run with ATTESTLY_PARTNER_INITIAL_STATUS=active instead.
 */
export async function registerPartner(
  t: Pick<TestApp, 'request'> & { smtp?: TestApp['smtp'] },
  overrides: { email?: string; company_name?: string } = {},
) {
  const email = overrides.email ?? `partner-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'partner password 1';
  // A distinct client address per partner, as signUp does: per-IP sign-up limits would otherwise count the whole file.
  const ip = `10.${randomBytes(3).join('.')}`;
  await t.request
    .post('/api/v1/partners/register')
    .set('X-Forwarded-For', ip)
    .send({ email, password, company_name: overrides.company_name ?? 'Acme Games', business_type: 'Gaming' })
    .expect(201);
  if (t.smtp) {
    const mail = await t.smtp.waitFor(email, /Confirm your e-mail address/);
    const token = /\/partner\/verify-email\?token=([^\s]+)/.exec(mail.text)?.[1];
    expect(token, 'verification link').toBeDefined();
    await t.request
      .post('/api/v1/partners/verify-email')
      .set('X-Forwarded-For', ip)
      .send({ token: decodeURIComponent(token as string) })
      .expect(200);
  }
  const login = await t.request
    .post('/api/v1/partners/login')
    .set('X-Forwarded-For', ip)
    .send({ email, password })
    .expect(200);
  return {
    email,
    password,
    token: login.body.access_token as string,
    partner: login.body.partner as { id: string },
  };
}

export interface CreatedSite {
  id: string;
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  allowed_scopes: string[];
}

export async function createSite(
  t: Pick<TestApp, 'request'>,
  partnerToken: string,
  body: Partial<{
    site_name: string;
    domain: string;
    redirect_uris: string[];
    allowed_scopes: string[];
    client_type: string;
  }> = {},
): Promise<CreatedSite> {
  const response = await t.request
    .post('/api/v1/partners/sites')
    .set('Authorization', `Bearer ${partnerToken}`)
    .send({
      site_name: 'Acme Shop',
      // Redirect URIs must lie on the site's domain: by default the domain is the first redirect URI's host.
      domain: body.redirect_uris?.[0] ? new URL(body.redirect_uris[0]).hostname : 'shop.example.com',
      redirect_uris: ['https://shop.example.com/callback'],
      allowed_scopes: [
        'basic_info',
        'profile',
        'email',
        'AGE_18',
        'AGE_21',
        'location_verification',
        'identity_verification',
      ],
      ...body,
    })
    .expect(201);
  return response.body as CreatedSite;
}

/** The test browser: the shared cookie jar plus JSON calls to the interaction API. */
export class Browser extends CookieJar {
  async json(
    url: string,
    method: 'GET' | 'POST',
    body?: unknown,
    bearer?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await this.fetch(url, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
}

export function uidFrom(location: string): string {
  const uid = new URL(location).searchParams.get('uid');
  if (!uid) throw new Error(`no uid in ${location}`);
  return uid;
}

export interface UiOptions {
  login?: { email: string; password: string };
  /**
   * Scopes ticked on the consent screen; defaults to everything offered. 'deny' presses Deny; 'wallet' accepts a
   * registered wallet's credential request.
   */
  consent?: string[] | 'deny' | 'wallet';
}

/**
 * Drives an authorization request the way the SPA does: follows the provider's redirects, signs in and consents
 * through the JSON interaction API, and returns the final redirect to the client (the callback URL).
 */
export async function authorizeInBrowser(
  t: Pick<TestApp, 'baseUrl'>,
  browser: Browser,
  authorizationUrl: string,
  options: UiOptions = {},
) {
  let location = authorizationUrl;
  const steps: string[] = [];
  for (let hop = 0; hop < 10; hop += 1) {
    if (!location.startsWith(t.baseUrl)) return { callback: location, steps };
    const url = new URL(location);
    if (url.pathname === '/oauth/login') {
      steps.push('login');
      const uid = uidFrom(location);
      const result = await browser.json(
        `${t.baseUrl}/api/v1/oauth/interactions/${uid}/login`,
        'POST',
        options.login,
      );
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      location = String(result.body.redirect_to);
      continue;
    }
    if (url.pathname === '/oauth/consent') {
      steps.push('consent');
      const uid = uidFrom(location);
      const details = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}`, 'GET');
      expect(details.status, JSON.stringify(details.body)).toBe(200);
      const result =
        options.consent === 'deny'
          ? await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}/abort`, 'POST', {})
          : options.consent === 'wallet'
            ? await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}/wallet-consent`, 'POST', {})
            : await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}/consent`, 'POST', {
                scopes:
                  options.consent ??
                  (details.body.scopes as Array<{ scope: string }>).map((scope) => scope.scope),
              });
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      location = String(result.body.redirect_to);
      continue;
    }
    const response = await browser.fetch(location);
    const next = response.headers.get('location');
    if (!next) throw new Error(`no redirect from ${location}: ${response.status} ${await response.text()}`);
    location = new URL(next, location).href;
  }
  throw new Error('too many redirects');
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

/** openid-client configured for a site, against the real server over HTTP. */
export async function relyingParty(
  t: Pick<TestApp, 'baseUrl'>,
  site: CreatedSite,
): Promise<client.Configuration> {
  const auth = site.client_secret ? client.ClientSecretBasic(site.client_secret) : client.None();
  return client.discovery(new URL(`${t.baseUrl}/oauth2`), site.client_id, undefined, auth, {
    execute: [client.allowInsecureRequests],
  });
}

/** A user who has signed up (and, optionally, proven facts written straight to their row). */
export async function verifiedUser(
  t: TestApp,
  facts: Partial<{
    proven_min_age: number;
    location_country: string;
    location_state: string;
    identity: boolean;
  }> = {},
) {
  const user = await signUp(t);
  const now = t.clock.now();
  const year = new Date(now.getTime() + 365 * 86400_000);
  await t.db.models.User.update(
    {
      email_verified_at: now,
      ...(facts.proven_min_age !== undefined
        ? { proven_min_age: facts.proven_min_age, age_verified_at: now, age_verified_until: year }
        : {}),
      ...(facts.location_country
        ? {
            location_country: facts.location_country,
            location_state: facts.location_state ?? null,
            location_verified_at: now,
            location_verified_until: year,
          }
        : {}),
      ...(facts.identity ? { identity_verified_at: now, identity_verified_until: year } : {}),
    },
    { where: { id: user.user.id } },
  );
  return user;
}

/** Runs the whole code + PKCE flow for a site and returns the token response. */
export async function fullFlow(
  t: TestApp,
  site: CreatedSite,
  user: { email: string; password: string },
  options: { scope?: string; browser?: Browser; consent?: string[]; prompt?: string } = {},
) {
  const config = await relyingParty(t, site);
  const { verifier, challenge } = pkce();
  const state = client.randomState();
  const browser = options.browser ?? new Browser();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: site.redirect_uris[0] as string,
    scope: options.scope ?? 'openid basic_info AGE_18',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    ...(options.prompt ? { prompt: options.prompt } : {}),
  });
  const { callback, steps } = await authorizeInBrowser(t, browser, url.href, {
    login: user,
    consent: options.consent,
  });
  const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return { config, tokens, browser, steps, callback };
}

/** Waits for something written after the response (audit, event hooks). */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 3000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
