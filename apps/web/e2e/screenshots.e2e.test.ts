import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { bootstrap } from '../../api/src/bootstrap';
import { loadConfig } from '../../api/src/config';
import type { Deps } from '../../api/src/core/deps';
import { createLogger } from '../../api/src/logger';
import { createOidc, type Oidc } from '../../api/src/oidc';
import { createTestDatabase, startSmtpCapture } from '../../api/test/helpers';
import { launchChromium } from './chromium';
import { capture, DESKTOP, watch } from './screenshot-checks';
import { EXCLUDED, pageVisits, routeIds, routeTreePages, WEB } from './screenshot-visits';
import { uniqueEmail } from './support';

/**
 * Every page of the SPA at 1280 px and 360 px (issue 16): the list of pages comes from the route tree, so a new
 * route without a visit here fails the first test. Each page is opened in the state a person would see it in —
 * public pages as a guest, the user area signed in, the partner portal as a verified partner, the back office as an
 * administrator with two-factor authentication — and at each width the test waits for its heading, saves a
 * full-page screenshot under e2e/artifacts/pages/, and checks what could break: no sideways scrolling, one h1 and
 * one main landmark, no uncaught error and no console error.
 *
 * The back office needs an administrator, which only the admins service (`attestly admin create`) makes; so, like
 * backoffice.e2e.test.ts, this file starts its own server on a fresh database (SQLite, or PostgreSQL when
 * TEST_DATABASE_URL names one) with the OpenID Connect provider and a mail capture, as global-setup.ts does.
 * The pages and how a person reaches each are in screenshot-visits.ts; what every page must hold, in
 * screenshot-checks.ts.
 */

/** Per page, both widths: the long pages (the API reference) take a while to lay out and capture on a busy machine. */
const VISIT_TIMEOUT_MS = 120_000;

const USER_PASSWORD = 'correct horse battery';
const PARTNER_PASSWORD = 'partner password 1';
const ADMIN_PASSWORD = 'staple battery horse correct';
const PARTNER_NAME = 'Acme Games';

// ---------------------------------------------------------------------------------------------------------------
// The server, its mail, and the people.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let deps: Deps;
let oidc: Oidc;
let server: Server;
let baseUrl: string;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let browser: Browser;

const user = { full_name: 'Ada Lovelace', email: uniqueEmail('ada'), password: USER_PASSWORD };
const partner = { email: uniqueEmail('partner'), password: PARTNER_PASSWORD };
const adminEmail = uniqueEmail('root');
const newsletterEmail = uniqueEmail('reader');
let partnerId = '';
let site = { client_id: '', redirect_uri: 'https://shop.acme.example/attestly/callback' };

async function api(
  method: 'GET' | 'POST',
  apiPath: string,
  body?: unknown,
  bearer?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/api/v1${apiPath}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-For': `10.${randomBytes(3).join('.')}`,
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The first mail to `to` whose subject matches, once it has arrived. */
async function mailTo(to: string, subject: RegExp): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = smtp.messages.find((mail) => mail.to.includes(to) && subject.test(mail.subject));
    if (found) return found.text;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** An authorization request of the partner's site, as its server would send the browser (PKCE, state). */
function authorizeUrl(clientId = site.client_id): string {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: site.redirect_uri,
    scope: 'openid basic_info AGE_18',
    state: randomBytes(12).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  return `/oauth2/authorize?${query.toString()}`;
}

const VISITS = pageVisits({
  user,
  partner,
  newsletterEmail,
  adminEmail,
  adminPassword: ADMIN_PASSWORD,
  partnerName: PARTNER_NAME,
  partnerId: () => partnerId,
  mailTo,
  authorizeUrl,
});

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpCapture();
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    ATTESTLY_DATA_DIR: database.dataDir,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ATTESTLY_PUBLIC_URL: baseUrl,
    ATTESTLY_WEB_DIR: path.join(WEB, 'dist'),
    ATTESTLY_SMTP_URL: smtp.url,
    ATTESTLY_PASSWORD_COST: '12',
    ATTESTLY_SUPPORT_EMAIL: 'support@e2e.attestly.test',
    ATTESTLY_TRUST_PROXY: 'true',
    LOG_LEVEL: 'error',
  });
  deps = await bootstrap(config, createLogger(config));
  oidc = await createOidc(deps, { keyCheckIntervalMs: 0 });
  const { app, services } = createApp(deps, { oidc });
  server = app.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  await services.admins.createAdmin({ email: adminEmail, password: ADMIN_PASSWORD, fullName: 'Root Admin' });

  // A user, a partner (pending until the mailed link is opened, below as a guest) with one site, a newsletter
  // reader, and the reset mails whose links the reset pages need.
  expect((await api('POST', '/users/register', user)).status).toBe(201);
  expect(
    (
      await api('POST', '/partners/register', {
        ...partner,
        company_name: PARTNER_NAME,
        business_type: 'Gaming',
      })
    ).status,
  ).toBe(201);
  const login = await api('POST', '/partners/login', partner);
  expect(login.status).toBe(200);
  partnerId = String((login.body.partner as { id: string }).id);
  const created = await api(
    'POST',
    '/partners/sites',
    {
      site_name: 'Acme Partner Shop',
      domain: 'shop.acme.example',
      redirect_uris: [site.redirect_uri],
      allowed_scopes: ['basic_info', 'AGE_18'],
    },
    String(login.body.access_token),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  site = { ...site, client_id: String(created.body.client_id) };
  expect((await api('POST', '/newsletter/subscribe', { email: newsletterEmail })).status).toBeLessThan(300);
  expect((await api('POST', '/users/forgot-password', { email: user.email })).status).toBeLessThan(300);
  expect((await api('POST', '/partners/forgot-password', { email: partner.email })).status).toBeLessThan(300);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  oidc?.close();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await deps?.db.close();
  await smtp?.close();
  await database?.drop();
});

// ---------------------------------------------------------------------------------------------------------------
// A browser context per role.

async function newRoleContext(): Promise<{ context: BrowserContext; page: Page }> {
  const bytes = randomBytes(3);
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: DESKTOP,
    extraHTTPHeaders: { 'X-Forwarded-For': `10.${bytes[0]}.${bytes[1]}.${bytes[2]}` },
  });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  watch(page);
  return { context, page };
}

// ---------------------------------------------------------------------------------------------------------------

describe('screenshots of every page at 1280 px and 360 px', () => {
  it('visits every page of the route tree (or names why not)', () => {
    const { onDisk, inTree } = routeIds();
    expect(inTree, 'routeTree.gen.ts is out of date with src/routes (run the web build)').toEqual(onDisk);
    const pages = routeTreePages();
    const covered = new Set(
      Object.values(VISITS)
        .flat()
        .flatMap((visit) => [visit.route, ...(visit.via ?? [])]),
    );
    const missing = pages.filter((page) => !covered.has(page) && !(page in EXCLUDED));
    expect(missing, 'pages of the route tree without a screenshot visit').toEqual([]);
    const unknown = [...covered, ...Object.keys(EXCLUDED)].filter((route) => !pages.includes(route));
    expect(unknown, 'visits or exclusions of routes the tree does not have').toEqual([]);
    const overlap = Object.keys(EXCLUDED).filter((route) => covered.has(route));
    expect(overlap, 'excluded routes that are visited anyway').toEqual([]);
  });

  describe('as a guest', () => {
    let role: Awaited<ReturnType<typeof newRoleContext>>;
    beforeAll(async () => {
      role = await newRoleContext();
    });
    afterAll(async () => {
      await role?.context.close();
    });
    for (const visit of VISITS.guest) it(visit.route, () => capture(role.page, visit), VISIT_TIMEOUT_MS);
  });

  describe('as a signed-in user', () => {
    let role: Awaited<ReturnType<typeof newRoleContext>>;
    beforeAll(async () => {
      role = await newRoleContext();
      const { page } = role;
      await page.goto('/login');
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/dashboard');
    });
    afterAll(async () => {
      await role?.context.close();
    });
    for (const visit of VISITS.user) it(visit.route, () => capture(role.page, visit), VISIT_TIMEOUT_MS);
  });

  describe('as a verified partner', () => {
    let role: Awaited<ReturnType<typeof newRoleContext>>;
    beforeAll(async () => {
      role = await newRoleContext();
      const { page } = role;
      await page.goto('/partner/login');
      await page.getByLabel('Email').fill(partner.email);
      await page.getByLabel('Password').fill(partner.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/partner/dashboard');
    });
    afterAll(async () => {
      await role?.context.close();
    });
    for (const visit of VISITS.partner) it(visit.route, () => capture(role.page, visit), VISIT_TIMEOUT_MS);
  });

  describe('as an administrator with two-factor authentication', () => {
    let role: Awaited<ReturnType<typeof newRoleContext>>;
    beforeAll(async () => {
      role = await newRoleContext();
    });
    afterAll(async () => {
      await role?.context.close();
    });
    for (const visit of VISITS.admin) it(visit.route, () => capture(role.page, visit), VISIT_TIMEOUT_MS);
  });
});
