import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, linkIn, newClient, screenshot, uniqueEmail, waitForMail } from './support';

/**
 * The whole partner journey in Chromium (issue 4 "Tests"): a partner's web site on another localhost port (its
 * own origin, so nothing is shared with the SPA but what the protocol carries) sends the user to Attestly with
 * PKCE and state, the user signs in and consents on the real SPA screens, the partner's server exchanges the code
 * and shows the claims; then the user revokes the token on /tokens and the partner's introspection sees it.
 */

const PASSWORD = 'correct horse battery';
const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
const html = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head>` +
  `<body><h1>${escape(title)}</h1>${body}</body></html>`;

/** A relying party as a partner would write one: server-side code exchange with its client secret. */
async function startPartnerSite(
  site: { client_id: string; client_secret: string },
  redirectUri: () => string,
) {
  const config = await client.discovery(
    new URL(`${baseUrl()}/oauth2`),
    site.client_id,
    undefined,
    client.ClientSecretBasic(site.client_secret),
    { execute: [client.allowInsecureRequests] },
  );
  /** Pending requests by state: the PKCE verifier stays on the partner's server, never in the browser. */
  const pending = new Map<string, string>();
  let accessToken: string | null = null;

  const cookie = (request: IncomingMessage, name: string) =>
    (request.headers.cookie ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .find(([key]) => key === name)?.[1];

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', redirectUri());
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', ...headers });
      response.end(body);
    };
    if (url.pathname === '/') {
      send(
        200,
        html(
          'Acme Partner Shop',
          '<p>Prove your age to enter.</p><a href="/start">Sign in with Attestly</a>',
        ),
      );
      return;
    }
    if (url.pathname === '/start') {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      pending.set(state, verifier);
      const authorize = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri(),
        scope: 'openid basic_info AGE_18',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      // The state is also bound to this browser by a cookie, so a code injected into another browser fails.
      send(302, '', {
        Location: authorize.href,
        'Set-Cookie': `rp_state=${state}; HttpOnly; SameSite=Lax; Path=/`,
      });
      return;
    }
    if (url.pathname === '/callback') {
      const state = url.searchParams.get('state') ?? '';
      const verifier = pending.get(state);
      if (!verifier || cookie(request, 'rp_state') !== state) {
        send(400, html('Sign-in failed', '<p>Unknown or tampered state.</p>'));
        return;
      }
      pending.delete(state);
      const tokens = await client.authorizationCodeGrant(config, url, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      accessToken = tokens.access_token;
      const claims = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()?.sub as string);
      send(
        200,
        html(
          'Signed in with Attestly',
          `<pre id="claims">${escape(JSON.stringify(claims, null, 2))}</pre><a href="/introspect">Check access</a>`,
        ),
      );
      return;
    }
    if (url.pathname === '/introspect') {
      const result = accessToken ? await client.tokenIntrospection(config, accessToken) : { active: false };
      send(
        200,
        html('Token status', `<pre id="introspection">${escape(JSON.stringify(result, null, 2))}</pre>`),
      );
      return;
    }
    send(404, html('Not found', ''));
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  };
}

const api = async (path: string, body: unknown, bearer?: string) => {
  const response = await fetch(`${baseUrl()}/api/v1${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-For': `10.${randomBytes(3).join('.')}`,
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

let browser: Browser;
let partnerSite: { server: Server; url: string };
const user = { full_name: 'Grace Hopper', email: uniqueEmail('grace'), password: PASSWORD };

beforeAll(async () => {
  browser = await launchBrowser();
  const partner = { email: uniqueEmail('partner'), password: 'partner password 1' };
  expect(
    (await api('/partners/register', { ...partner, company_name: 'Acme Games', business_type: 'Gaming' }))
      .status,
  ).toBe(201);
  // New partners are pending until they open the mailed link; their sites refuse sign-ins meanwhile.
  const link = linkIn(
    await waitForMail(partner.email, /Confirm your e-mail address/),
    '/partner/verify-email',
  );
  const token = new URL(link, baseUrl()).searchParams.get('token') ?? '';
  expect((await api('/partners/verify-email', { token })).status).toBe(200);
  const login = await api('/partners/login', partner);
  expect(login.status).toBe(200);
  // The redirect URI names the partner server's port, which is only known once it listens: the site is created
  // with a placeholder port and updated right after.
  let redirect = '';
  const created = await api(
    '/partners/sites',
    {
      site_name: 'Acme Partner Shop',
      domain: 'localhost',
      redirect_uris: ['http://127.0.0.1:9/callback'],
      allowed_scopes: ['basic_info', 'AGE_18'],
    },
    String(login.body.access_token),
  );
  expect(created.status).toBe(201);
  partnerSite = await startPartnerSite(
    { client_id: String(created.body.client_id), client_secret: String(created.body.client_secret) },
    () => redirect,
  );
  redirect = `${partnerSite.url}/callback`;
  const updated = await fetch(`${baseUrl()}/api/v1/partners/sites/${String(created.body.id)}`, {
    method: 'PUT',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${String(login.body.access_token)}`,
    },
    body: JSON.stringify({ redirect_uris: [redirect] }),
  });
  expect(updated.status, await updated.clone().text()).toBe(200);
  expect((await api('/users/register', user)).status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  if (partnerSite) {
    partnerSite.server.closeAllConnections();
    await new Promise<void>((resolve) => partnerSite.server.close(() => resolve()));
  }
});

const pathOf = (page: Page) => new URL(page.url()).pathname;
const originOf = (page: Page) => new URL(page.url()).origin;

async function partnerIntrospection(page: Page): Promise<Record<string, unknown>> {
  await page.goto(`${partnerSite.url}/introspect`);
  return JSON.parse(await page.locator('#introspection').innerText()) as Record<string, unknown>;
}

describe('a partner site signing a user in with Attestly', () => {
  it('signs in, consents, shows the claims, and reports the token inactive once the user revokes it', async () => {
    const context = await newClient(browser);
    const page = await context.newPage();

    await page.goto(`${partnerSite.url}/`);
    await screenshot(page, 'oidc-01-partner-home');
    await page.getByRole('link', { name: 'Sign in with Attestly' }).click();

    // The provider sends the browser to the SPA's sign-in screen for this request.
    await expect.poll(() => `${originOf(page)}${pathOf(page)}`).toBe(`${baseUrl()}/oauth/login`);
    await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
    await page.getByText('Acme Partner Shop').first().waitFor();
    await screenshot(page, 'oidc-02-login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect.poll(() => pathOf(page)).toBe('/oauth/consent');
    await page.getByText('Acme Partner Shop asks for:').waitFor();
    const basic = page.getByRole('checkbox').first();
    expect(await basic.isChecked()).toBe(true);
    expect(await basic.isDisabled()).toBe(true);
    // The boxes are drawn in the brand colour (not the browser's default blue), at the first line of their label.
    // The brand colour as the stylesheet computes it: a probe element with the brand's text-colour class.
    const brand = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.className = 'text-indigo-700';
      document.body.append(probe);
      const colour = getComputedStyle(probe).color;
      probe.remove();
      return colour;
    });
    for (const box of await page.getByRole('checkbox').all()) {
      expect(await box.evaluate((input) => getComputedStyle(input).accentColor)).toBe(brand);
    }
    await screenshot(page, 'oidc-03-consent');
    await page.getByRole('button', { name: 'Allow' }).click();

    // Back on the partner's site: its server exchanged the code (with the PKCE verifier) and read userinfo.
    await page.getByRole('heading', { name: 'Signed in with Attestly' }).waitFor();
    expect(originOf(page)).toBe(partnerSite.url);
    const claims = JSON.parse(await page.locator('#claims').innerText()) as Record<string, unknown>;
    // Nothing proven yet: the site learns "not proven" (age_verified false), never a bare age_over_18: false.
    expect(claims).toMatchObject({ age_verified: false, age_threshold: 18 });
    expect(claims).not.toHaveProperty('age_over_18');
    // Pairwise subject: not the user's Attestly id, and nothing beyond the granted scopes (name and e-mail are the
    // separate, declinable profile and email scopes, which this site does not ask for).
    expect(claims.sub).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(claims).not.toHaveProperty('email');
    expect(claims).not.toHaveProperty('name');
    expect(claims).not.toHaveProperty('location');
    expect(claims).not.toHaveProperty('identity_verified');
    await screenshot(page, 'oidc-04-partner-claims');
    expect(await partnerIntrospection(page)).toMatchObject({
      active: true,
      scope: expect.stringContaining('AGE_18'),
    });

    // The user, still signed in to Attestly in this tab, revokes the site's access.
    await page.goto(`${baseUrl()}/tokens`);
    await page.getByRole('heading', { name: 'Connected sites' }).waitFor();
    const row = page.getByTestId('token-row').filter({ hasText: 'Acme Partner Shop' });
    await row.getByText('Active').waitFor();
    await screenshot(page, 'oidc-05-tokens-active');
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Are you sure you want to revoke this token?').waitFor();
    await screenshot(page, 'oidc-06-revoke-confirm');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Token revoked successfully').waitFor();
    await row.getByText('Revoked').waitFor();
    expect(await row.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    await screenshot(page, 'oidc-07-tokens-revoked');

    expect(await partnerIntrospection(page)).toEqual({ active: false });
    await screenshot(page, 'oidc-08-partner-introspection');
    await context.close();
  });
});
