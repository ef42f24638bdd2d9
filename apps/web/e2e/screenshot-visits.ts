/**
 * The pages screenshots.e2e.test.ts visits: every page of the route tree (read here, with the routes left out and
 * why), per role, and how a person gets to each (a mailed link, an authorization request, the two-factor setup).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
export const WEB = path.resolve(here, '..');
const ROUTES_DIR = path.join(WEB, 'src/routes');
const ROUTE_TREE = path.join(WEB, 'src/routeTree.gen.ts');

/**
 * Routes of the tree that are not screenshotted, each with its reason. Layout routes (a route with children, such
 * as /partner and /backoffice) are not pages and are left out by the route tree reading below.
 */
export const EXCLUDED: Record<string, string> = {
  '/partner/demo-callback':
    'popup return page of the portal demo: it hands its address to the opener window and closes itself; ' +
    'it has no content of its own (one line of text) — partner.e2e.test.ts drives it through the real demo',
};

// ---------------------------------------------------------------------------------------------------------------
// The route tree.

/** Full paths of the generated route tree, without layout routes (those with children). */
export function routeTreePages(): string[] {
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
export function routeIds(): { onDisk: string[]; inTree: string[] } {
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
export const concrete = (fullPath: string) => (fullPath === '/' ? '/' : fullPath.replace(/\/$/, ''));

// ---------------------------------------------------------------------------------------------------------------
// Visits.

export type Role = 'guest' | 'user' | 'partner' | 'admin';

export interface Visit {
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

export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** The app's link in a mail, relative to the server (`/path?token=…` or `/path/<token>`). */
function linkIn(text: string, prefix: string): string {
  const match = new RegExp(`https?://[^\\s/]+(${prefix.replace(/\//g, '\\/')}[?/][^\\s]+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${prefix} link in ${text}`);
  return match[1];
}

/** A TOTP code `stepsAhead` 30-second steps from now (the server accepts one step of drift either way). */
const totp = (secret: string, stepsAhead = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

/** The people and the one site the visits use, made by the test's set-up (the partner's id once it exists). */
export interface VisitPeople {
  user: { email: string };
  partner: { email: string };
  newsletterEmail: string;
  adminEmail: string;
  adminPassword: string;
  partnerName: string;
  partnerId: () => string;
  /** The first mail to `to` whose subject matches, once it has arrived. */
  mailTo: (to: string, subject: RegExp) => Promise<string>;
  /** An authorization request of the partner's site (or of `clientId`), as its server would send the browser. */
  authorizeUrl: (clientId?: string) => string;
}

/** Every visit, per role. */
export function pageVisits(people: VisitPeople): Record<Role, Visit[]> {
  const { user, partner, newsletterEmail, adminEmail, adminPassword, partnerName, partnerId } = people;
  const { mailTo, authorizeUrl } = people;
  return {
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
          await page.goto(
            linkIn(await mailTo(user.email, /Reset your Attestly password/), '/reset-password'),
          );
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
          await page.getByLabel('Password').fill(adminPassword);
          await page.getByRole('button', { name: 'Sign in' }).click();
          await expect.poll(() => pathOf(page)).toBe('/backoffice/setup-2fa');
          await page.getByLabel('Current password').fill(adminPassword);
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
        heading: partnerName,
        open: async (page) => {
          await page.goto(`/backoffice/partners/${partnerId()}`);
        },
        path: /^\/backoffice\/partners\/[\w-]+$/,
        name: 'backoffice-partner-detail',
      },
      { route: '/backoffice/tokens', heading: 'Tokens & OAuth' },
      { route: '/backoffice/audit', heading: 'Audit Logs' },
    ],
  };
}
