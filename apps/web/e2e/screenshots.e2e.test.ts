import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSync } from 'otplib';
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
import { MOBILE, screenshot, uniqueEmail } from './support';

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
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.resolve(here, '..');
const ROUTES_DIR = path.join(WEB, 'src/routes');
const ROUTE_TREE = path.join(WEB, 'src/routeTree.gen.ts');
const DESKTOP = { width: 1280, height: 800 };
const NARROW = { width: MOBILE.width, height: MOBILE.height };
/** Per page, both widths: the long pages (the API reference) take a while to lay out and capture on a busy machine. */
const VISIT_TIMEOUT_MS = 120_000;

const USER_PASSWORD = 'correct horse battery';
const PARTNER_PASSWORD = 'partner password 1';
const ADMIN_PASSWORD = 'staple battery horse correct';
const PARTNER_NAME = 'Acme Games';

/**
 * Routes of the tree that are not screenshotted, each with its reason. Layout routes (a route with children, such
 * as /partner and /backoffice) are not pages and are left out by the route tree reading below.
 */
const EXCLUDED: Record<string, string> = {
  '/partner/demo-callback':
    'popup return page of the portal demo: it hands its address to the opener window and closes itself; ' +
    'it has no content of its own (one line of text) — partner.e2e.test.ts drives it through the real demo',
};

/**
 * Console errors that are expected, each with its pattern and reason (Chromium logs every failed HTTP response as
 * a console error). None today: no page in the states visited here logs one, so any console error fails.
 */
const EXPECTED_CONSOLE_ERRORS: Array<{ pattern: RegExp; reason: string }> = [];

// ---------------------------------------------------------------------------------------------------------------
// The route tree.

/** Full paths of the generated route tree, without layout routes (those with children). */
function routeTreePages(): string[] {
  const tree = readFileSync(ROUTE_TREE, 'utf8');
  const block = /export interface FileRoutesByFullPath \{([^}]*)\}/.exec(tree)?.[1];
  if (!block) throw new Error(`no FileRoutesByFullPath in ${ROUTE_TREE}`);
  const entries = [...block.matchAll(/^\s*'([^']+)': typeof (\w+)$/gm)].map(([, fullPath, type]) => ({
    fullPath: fullPath as string,
    layout: (type as string).endsWith('WithChildren'),
  }));
  expect(entries.length).toBeGreaterThan(0);
  return entries.filter((entry) => !entry.layout).map((entry) => entry.fullPath);
}

/** The ids the generated tree knows, against the route files on disk: a stale tree would hide a new page. */
function routeIds(): { onDisk: string[]; inTree: string[] } {
  const onDisk: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (
        /\.tsx?$/.test(entry.name) &&
        !/\.(test|spec)\.tsx?$/.test(entry.name) &&
        // The router's routeFileIgnorePrefix.
        !entry.name.startsWith('-')
      ) {
        const id = /createFileRoute\('([^']+)'\)/.exec(readFileSync(full, 'utf8'))?.[1];
        if (id) onDisk.push(id);
        else if (entry.name !== '__root.tsx') throw new Error(`no createFileRoute in ${full}`);
      }
    }
  };
  walk(ROUTES_DIR);
  const tree = readFileSync(ROUTE_TREE, 'utf8');
  const block = /export interface FileRoutesById \{([^}]*)\}/.exec(tree)?.[1] ?? '';
  const inTree = [...block.matchAll(/^\s*'([^']+)': typeof \w+$/gm)]
    .map(([, id]) => id as string)
    .filter((id) => id !== '__root__');
  return { onDisk: onDisk.sort(), inTree: inTree.sort() };
}

/** The address of a parameterless full path: '/docs/' is served at /docs. */
const concrete = (fullPath: string) => (fullPath === '/' ? '/' : fullPath.replace(/\/$/, ''));

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

/** The app's link in a mail, relative to the server (`/path?token=…` or `/path/<token>`). */
function linkIn(text: string, prefix: string): string {
  const match = new RegExp(`https?://[^\\s/]+(${prefix.replace(/\//g, '\\/')}[?/][^\\s]+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${prefix} link in ${text}`);
  return match[1];
}

/** A TOTP code `stepsAhead` 30-second steps from now (the server accepts one step of drift either way). */
const totp = (secret: string, stepsAhead = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

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
// Visits.

type Role = 'guest' | 'user' | 'partner' | 'admin';

interface Visit {
  /** The full path in the route tree this visit shows. */
  route: string;
  /** The page's h1 once its content is there. */
  heading: string | RegExp;
  /** How a person gets there; by default the route's address. */
  open?: (page: Page) => Promise<void>;
  /** The address the page ends on; by default the route's address. */
  path?: string | RegExp;
  /** Routes passed through on the way (pure redirects), covered by this visit. */
  via?: string[];
  /** Artifact name; by default from the route. */
  name?: string;
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

const VISITS: Record<Role, Visit[]> = {
  guest: [
    { route: '/', heading: /./, name: 'landing' },
    { route: '/news/', heading: 'News & Insights' },
    {
      route: '/news/$id',
      heading: /./,
      // A real article: the first card of the news list.
      open: async (page) => {
        await page.goto('/news');
        const href = await page.locator('article a[href^="/news/"]').first().getAttribute('href');
        expect(href).toMatch(/^\/news\/\d+$/);
        await page.goto(href as string);
      },
      path: /^\/news\/\d+$/,
      name: 'news-article',
    },
    { route: '/docs/', heading: 'Documentation' },
    { route: '/docs/api', heading: 'API reference' },
    { route: '/docs/guide', heading: 'Integration guide' },
    { route: '/docs/sdk', heading: 'SDKs and client libraries' },
    { route: '/privacy', heading: 'Privacy Policy' },
    { route: '/terms', heading: 'Terms of Service' },
    { route: '/status', heading: 'Status' },
    { route: '/login', heading: /./ },
    { route: '/register', heading: /./ },
    { route: '/forgot-password', heading: 'Reset your password' },
    {
      route: '/reset-password',
      heading: 'Choose a new password',
      open: async (page) => {
        await page.goto(linkIn(await mailTo(user.email, /Reset your Attestly password/), '/reset-password'));
        await page.getByLabel('Confirm new password').waitFor();
      },
    },
    {
      // The mail's short link redirects to /verify-email?token=…, which verifies the address.
      route: '/verify-email',
      via: ['/confirm-email/$token'],
      heading: 'Verify your email',
      open: async (page) => {
        await page.goto(linkIn(await mailTo(user.email, /Confirm your e-mail address/), '/confirm-email'));
        await page.getByText('Your email address is verified.').waitFor();
      },
    },
    {
      route: '/newsletter/confirm',
      heading: 'Confirm your subscription',
      open: async (page) => {
        await page.goto(
          linkIn(await mailTo(newsletterEmail, /Confirm your subscription/), '/newsletter/confirm'),
        );
        await page.getByText('Your subscription is confirmed.').waitFor();
      },
    },
    {
      route: '/newsletter/unsubscribe',
      heading: 'Unsubscribe',
      open: async (page) => {
        await page.goto(
          linkIn(await mailTo(newsletterEmail, /Confirm your subscription/), '/newsletter/unsubscribe'),
        );
        await page.getByText('You have been unsubscribed.').waitFor();
      },
    },
    // Opened by hand, not as the end of a sign-in: the explanation the page gives then.
    {
      // A real authorization request for a client the server does not know.
      route: '/oauth/error',
      heading: 'This sign-in link does not work',
      open: async (page) => {
        await page.goto(authorizeUrl('no-such-client'));
      },
    },
    { route: '/partner/login', heading: 'Partner sign in' },
    { route: '/partner/register', heading: 'Register your company' },
    // The page a registration ends on, opened as the registration leaves it (with the address it names).
    {
      route: '/partner/registered',
      heading: 'Check your inbox',
      open: async (page) => {
        await page.goto('/partner/registered?email=new.partner%40example.com');
      },
      path: '/partner/registered',
    },
    { route: '/partner/forgot-password', heading: 'Reset your partner password' },
    {
      route: '/partner/reset-password',
      heading: 'Choose a new password',
      open: async (page) => {
        await page.goto(
          linkIn(
            await mailTo(partner.email, /Reset the password of your Attestly partner account/),
            '/partner/reset-password',
          ),
        );
      },
    },
    {
      // The partner's sign-up mail: opening it makes the pending partner active (its site may then sign people in).
      route: '/partner/verify-email',
      heading: 'Verify your email',
      open: async (page) => {
        await page.goto(
          linkIn(await mailTo(partner.email, /Confirm your e-mail address/), '/partner/verify-email'),
        );
        await page.getByText(/Your email address is verified/).waitFor();
      },
    },
    {
      // The partner's site sends a visitor to Attestly: the sign-in step of that request.
      route: '/oauth/login',
      heading: 'Sign in to continue',
      open: async (page) => {
        await page.goto(authorizeUrl());
        await page.getByText('Acme Partner Shop').first().waitFor();
      },
    },
    { route: '/backoffice/login', heading: 'Back office sign in' },
  ],
  user: [
    { route: '/dashboard', heading: /Welcome back, Ada/ },
    { route: '/profile', heading: 'Profile settings' },
    { route: '/security', heading: 'Security' },
    { route: '/verification', heading: 'Verification' },
    { route: '/tokens', heading: 'Connected sites' },
    {
      // The partner's site asks again; the signed-in user continues and reaches the consent step.
      route: '/oauth/consent',
      heading: 'Share your verification',
      open: async (page) => {
        await page.goto(authorizeUrl());
        await page.getByRole('button', { name: `Continue as ${user.email}` }).click();
        await page.getByText('Acme Partner Shop asks for:').waitFor();
      },
    },
  ],
  partner: [
    { route: '/partner/dashboard', heading: 'Dashboard' },
    { route: '/partner/sites', heading: 'Sites' },
    { route: '/partner/api-keys', heading: 'API keys' },
    { route: '/partner/management', heading: 'Site management' },
    { route: '/partner/integration', heading: 'Integration' },
    { route: '/partner/demo', heading: 'Integration demo' },
    { route: '/partner/webhooks', heading: 'Webhooks' },
    { route: '/partner/audit-logs', heading: 'Audit logs' },
    { route: '/partner/plans', heading: 'Plans' },
    { route: '/partner/subscription', heading: 'Subscription' },
    // Opened without a checkout session (a real one needs Stripe, then redirects after 2 s): the page's message.
    { route: '/partner/subscription-success', heading: 'Subscription' },
  ],
  admin: [
    {
      // First sign-in: the mandatory two-factor setup, with the QR code and backup codes shown.
      route: '/backoffice/setup-2fa',
      heading: /./,
      open: async (page) => {
        await page.goto('/backoffice/login');
        await page.getByLabel('Email').fill(adminEmail);
        await page.getByLabel('Password').fill(ADMIN_PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expect.poll(() => pathOf(page)).toBe('/backoffice/setup-2fa');
        await page.getByLabel('Current password').fill(ADMIN_PASSWORD);
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByTestId('totp-secret').waitFor();
        await expect
          .poll(() =>
            page
              .getByRole('img', { name: 'QR code for your authenticator app' })
              .evaluate((img) => (img as HTMLImageElement).naturalWidth),
          )
          .toBeGreaterThan(0);
      },
    },
    {
      route: '/backoffice/',
      heading: 'Dashboard',
      open: async (page) => {
        const secret = (await page.getByTestId('totp-secret').innerText()).trim();
        await page.getByLabel('Verification code').fill(totp(secret));
        await page.getByRole('button', { name: 'Enable two-factor authentication' }).click();
        // The setup page sends the now signed-in administrator on to the dashboard.
        await expect.poll(() => pathOf(page), { timeout: 15_000 }).toBe('/backoffice');
        await page.getByRole('heading', { name: 'System health' }).waitFor();
      },
    },
    { route: '/backoffice/verifications', heading: 'Verifications' },
    { route: '/backoffice/users', heading: 'Users Management' },
    { route: '/backoffice/partners/', heading: 'Partners' },
    {
      route: '/backoffice/partners/$partnerId',
      heading: PARTNER_NAME,
      open: async (page) => {
        await page.goto(`/backoffice/partners/${partnerId}`);
      },
      path: /^\/backoffice\/partners\/[\w-]+$/,
      name: 'backoffice-partner-detail',
    },
    { route: '/backoffice/tokens', heading: 'Tokens & OAuth' },
    { route: '/backoffice/audit', heading: 'Audit Logs' },
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// What every page must hold at every width.

interface Problems {
  pageErrors: string[];
  consoleErrors: string[];
}

const watched = new WeakMap<Page, Problems>();

function watch(page: Page): Problems {
  const problems: Problems = { pageErrors: [], consoleErrors: [] };
  page.on('pageerror', (error) => problems.pageErrors.push(`${error.name}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = `${message.text()} (${message.location().url})`;
    if (!EXPECTED_CONSOLE_ERRORS.some((expected) => expected.pattern.test(text))) {
      problems.consoleErrors.push(text);
    }
  });
  watched.set(page, problems);
  return problems;
}

const artifactName = (visit: Visit) =>
  visit.name ?? (concrete(visit.route).replace(/^\//, '').replace(/\//g, '-') || 'landing');

/**
 * What makes the page wider than the window, for the failure message: the innermost elements past the right edge
 * that no scrolling or clipping box inside the window holds.
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}` +
      `${typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : ''}` +
      ` "${(element.textContent ?? '').trim().slice(0, 60)}"`;
    const past = (element: Element) => element.getBoundingClientRect().right > window.innerWidth + 0.5;
    const held = (element: Element) => {
      // An absolutely positioned element is clipped only by a box at or above its containing block.
      let positioned = ['absolute', 'fixed'].includes(getComputedStyle(element).position);
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
        const style = getComputedStyle(box);
        if (positioned && style.position === 'static') continue;
        if (style.overflowX !== 'visible' && !past(box)) return true;
        positioned = ['absolute', 'fixed'].includes(style.position);
      }
      return false;
    };
    const sticking = [...document.body.querySelectorAll('*')].filter(
      (element) => past(element) && !held(element),
    );
    return sticking
      .filter((element) => !sticking.some((other) => other !== element && element.contains(other)))
      .slice(0, 5)
      .map(describe);
  });
}

async function checkAndCapture(page: Page, visit: Visit, width: number): Promise<void> {
  const label = `${visit.route} at ${width} px`;
  const heading = page.locator('h1').filter({ hasText: visit.heading });
  await heading.first().waitFor();
  // The page's data is in: no loading spinner, no request in flight.
  await page.waitForFunction(() => document.querySelector('.animate-spin') === null);
  if (width === DESKTOP.width) await page.waitForLoadState('networkidle');
  const expectedPath = visit.path ?? concrete(visit.route);
  if (typeof expectedPath === 'string') expect(pathOf(page), label).toBe(expectedPath);
  else expect(pathOf(page), label).toMatch(expectedPath);

  const layout = await page.evaluate(() => ({
    scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
    innerWidth: window.innerWidth,
    h1: document.querySelectorAll('h1').length,
    main: document.querySelectorAll('main, [role="main"]').length,
  }));
  expect(layout.innerWidth, label).toBe(width);
  if (layout.scrollWidth > layout.innerWidth) {
    expect(
      layout.scrollWidth,
      `horizontal scrolling on ${label}; past the right edge: ${(await overflowing(page)).join(' | ')}`,
    ).toBeLessThanOrEqual(layout.innerWidth);
  }
  expect(layout.h1, `h1 elements on ${label}`).toBe(1);
  expect(layout.main, `main landmarks on ${label}`).toBe(1);

  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `pages/${artifactName(visit)}-${width}`);
}

/** Opens the page at 1280 px, then narrows the same page to 360 px (one-time links cannot be opened twice). */
async function capture(page: Page, visit: Visit): Promise<void> {
  const problems = watched.get(page) as Problems;
  problems.pageErrors.length = 0;
  problems.consoleErrors.length = 0;
  await page.setViewportSize(DESKTOP);
  await (visit.open ?? ((target: Page) => target.goto(concrete(visit.route)).then(() => undefined)))(page);
  await checkAndCapture(page, visit, DESKTOP.width);
  await page.setViewportSize(NARROW);
  await checkAndCapture(page, visit, NARROW.width);
  expect(problems.pageErrors, `uncaught errors on ${visit.route}`).toEqual([]);
  expect(problems.consoleErrors, `console errors on ${visit.route}`).toEqual([]);
}

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
