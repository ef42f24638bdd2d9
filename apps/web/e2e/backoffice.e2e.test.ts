import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVisionEngine, type VisionEngine } from '@attestly/models';
import { generateSync } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { bootstrap } from '../../api/src/bootstrap';
import { loadConfig } from '../../api/src/config';
import type { Deps } from '../../api/src/core/deps';
import { createLogger } from '../../api/src/logger';
import { createTestDatabase, startSmtpCapture } from '../../api/test/helpers';
import { passportImage } from '../../api/test/verification-media';
import { launchChromium } from './chromium';
import { MOBILE, expectAccessible, screenshot, uniqueEmail } from './support';

/**
 * The back office end to end (spec 02, issue 9): an administrator made with the admins service signs in, sets up
 * two-factor authentication from the secret the page shows, signs out, signs in again with a fresh code, opens a
 * document verification that the real MRZ reader could not read, views its kept media, and approves it; the user's
 * age then reads verified and the user got a mail. Document reading needs the vision engine, so — like
 * verification.e2e.test.ts — this file starts its own server (one inference worker) and its own mail capture.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const WEB_DIST = path.resolve(here, '../dist');
const ADMIN_PASSWORD = 'staple battery horse correct';
const USER_PASSWORD = 'correct horse battery';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let engine: VisionEngine;
let deps: Deps;
let server: Server;
let baseUrl: string;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let adminEmail: string;

beforeAll(async () => {
  // SQLite by default; PostgreSQL when TEST_DATABASE_URL names one (a throwaway database for this file).
  database = await createTestDatabase();
  engine = createVisionEngine({ workers: 1 });
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
    ATTESTLY_WEB_DIR: WEB_DIST,
    ATTESTLY_SMTP_URL: smtp.url,
    ATTESTLY_PASSWORD_COST: '12',
    ATTESTLY_TRUST_PROXY: 'true',
    LOG_LEVEL: 'error',
  });
  deps = await bootstrap(config, createLogger(config));
  const { app, services } = createApp(deps, { vision: engine });
  server = app.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  // The first administrator, as `attestly admin create` makes one (INTERFACES.md: services.admins.createAdmin).
  adminEmail = uniqueEmail('root');
  await services.admins.createAdmin({ email: adminEmail, password: ADMIN_PASSWORD, fullName: 'Root Admin' });
  browser = await launchChromium();
  await engine.ready;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await deps?.db.close();
  await engine?.close();
  await smtp?.close();
  await database?.drop();
});

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function newContext(): Promise<BrowserContext> {
  const bytes = randomBytes(3);
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 900 },
    extraHTTPHeaders: { 'X-Forwarded-For': `10.${bytes[0]}.${bytes[1]}.${bytes[2]}` },
  });
  context.setDefaultTimeout(20_000);
  return context;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** A user with a document the reader cannot read: pending, waiting for a reviewer, the upload kept encrypted. */
async function userWithUnreadableDocument(context: BrowserContext) {
  const email = uniqueEmail('holmes');
  const registered = await context.request.post('/api/v1/users/register', {
    data: { full_name: 'Sarah Holmes', email, password: USER_PASSWORD },
  });
  expect(registered.status()).toBe(201);
  const login = await context.request.post('/api/v1/users/login', {
    data: { email, password: USER_PASSWORD },
  });
  expect(login.status()).toBe(200);
  const token = ((await login.json()) as { access_token: string }).access_token;
  const page = await passportImage(['THIS PAGE HAS NO', 'MACHINE READABLE ZONE'], 'png');
  const upload = await context.request.post('/api/v1/users/verify/document', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      document_type: 'passport',
      file: { name: 'page.png', mimeType: 'image/png', buffer: page },
    },
    timeout: 60_000,
  });
  expect(upload.status()).toBe(201);
  const body = (await upload.json()) as {
    status: string;
    needs_manual_review: boolean;
    verification_id: string;
  };
  expect(body).toMatchObject({ status: 'pending', needs_manual_review: true });
  return { email, token, verificationId: body.verification_id };
}

/** A TOTP code `stepsAhead` 30-second steps from now (the server accepts one step of drift either way). */
const totp = (secret: string, stepsAhead = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

async function signIn(page: Page) {
  await page.goto('/backoffice/login');
  await page.getByLabel('Email').fill(adminEmail);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('back office', () => {
  it('sets up 2FA, signs in with a fresh code, reviews an unreadable document and approves it', async () => {
    const context = await newContext();
    const subject = await userWithUnreadableDocument(context);
    const page = await context.newPage();

    // Without a token every back-office page leads to the sign-in page.
    await page.goto('/backoffice/verifications');
    await expect.poll(() => pathOf(page)).toBe('/backoffice/login');
    await expectAccessible(page, 'back-office login');
    await shot(page, 'backoffice-login-1280');

    // First sign-in: mandatory two-factor setup.
    await signIn(page);
    await expect.poll(() => pathOf(page)).toBe('/backoffice/setup-2fa');
    await page.getByLabel('Current password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expect
      .poll(() =>
        page
          .getByRole('img', { name: 'QR code for your authenticator app' })
          .evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
    expect(await page.getByRole('list', { name: 'Backup codes' }).getByRole('listitem').count()).toBe(10);
    await expectAccessible(page, 'back-office 2FA setup');
    await shot(page, 'backoffice-setup-2fa-1280');
    await page.getByLabel('Verification code').fill(totp(secret));
    await page.getByRole('button', { name: 'Enable two-factor authentication' }).click();
    await page.getByText('Two-factor authentication is enabled').waitFor();
    // After 2 seconds the login page sends the now signed-in admin on to the dashboard.
    await expect.poll(() => pathOf(page), { timeout: 10_000 }).toBe('/backoffice');
    await page.getByText('Registrations (24h)').waitFor();
    await page.getByText('2FA Enabled').first().waitFor();

    // Sign out, then sign in with a code of the next step (the one just used is spent).
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => pathOf(page)).toBe('/backoffice/login');
    await page.goto('/backoffice');
    await expect.poll(() => pathOf(page)).toBe('/backoffice/login');
    await signIn(page);
    await page.getByLabel('2FA code').fill(totp(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => pathOf(page)).toBe('/backoffice');
    await page.getByRole('heading', { name: 'System health' }).waitFor();
    await expectAccessible(page, 'back-office dashboard');
    await shot(page, 'backoffice-dashboard-1280');

    // The review queue: the unreadable document waits for a reviewer.
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Verifications' })
      .click();
    const row = page.getByTestId('verification-row').filter({ hasText: subject.email });
    await row.getByText('Review Required').waitFor();
    await expectAccessible(page, 'back-office verifications');
    await shot(page, 'backoffice-verifications-1280');

    // At 1280 px the row's decisions are on screen without scrolling the table sideways.
    for (const name of [
      `Approve verification ${subject.verificationId}`,
      `Details of verification ${subject.verificationId}`,
    ]) {
      const box = await row.getByRole('button', { name }).boundingBox();
      expect((box?.x ?? 2000) + (box?.width ?? 0), `${name} at 1280 px`).toBeLessThanOrEqual(1280);
    }
    await row.getByRole('button', { name: `Details of verification ${subject.verificationId}` }).click();
    const details = page.getByRole('dialog', { name: 'Verification details' });
    await details.getByText('Document analysis').waitFor();
    const mediaResponse = page.waitForResponse((response) => response.url().includes('/media/'));
    await details.getByRole('button', { name: 'View media' }).click();
    const media = await mediaResponse;
    expect(media.status()).toBe(200);
    expect(media.headers()['cache-control']).toContain('no-store');
    const image = details.getByRole('img', { name: 'Submitted image 1' });
    await expect
      .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await expectAccessible(page, 'back-office verification details with media');
    await image.scrollIntoViewIfNeeded();
    await screenshot(page, 'backoffice-verification-media-1280');
    // Approve inside the same dialog, with the media in view, with reviewer notes (required).
    await details.getByRole('button', { name: 'Approve' }).click();
    await details.getByRole('heading', { name: 'Approve verification' }).waitFor();
    await expect.poll(() => image.isVisible()).toBe(true);
    const approve = details;
    await approve.getByRole('button', { name: 'Approve' }).click();
    await approve.getByText('Reviewer notes are required').waitFor();
    await approve.getByLabel('Reviewer notes').fill('Passport page checked by hand: holder is an adult.');
    await approve.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Verification approved successfully').waitFor();
    await approve.waitFor({ state: 'hidden' });
    await expect.poll(() => row.getByText('Review Required').count()).toBe(0);

    // The user's status now reads verified, and a mail told them.
    const status = await context.request.get('/api/v1/users/verification-status', {
      headers: { Authorization: `Bearer ${subject.token}` },
    });
    expect(status.status()).toBe(200);
    const answer = (await status.json()) as { age_verified: boolean; pending_reviews: number };
    expect(answer.age_verified).toBe(true);
    expect(answer.pending_reviews).toBe(0);
    await expect
      .poll(
        () =>
          smtp.messages.filter((mail) => mail.to.includes(subject.email) && /approved/i.test(mail.subject))
            .length,
      )
      .toBe(1);

    // A partner made from the back office, its detail page and key regeneration (shown once).
    const nav = page.getByRole('navigation', { name: 'Back office' });
    await nav.getByRole('link', { name: 'Partners' }).click();
    await page.getByRole('button', { name: 'Create Partner' }).click();
    const create = page.getByRole('dialog', { name: 'Create Partner' });
    await create.getByLabel('Partner name').fill('Acme Games');
    await create.getByLabel('Contact name').fill('Wile Coyote');
    await create.getByLabel('Contact email').fill(uniqueEmail('acme'));
    await create.getByLabel('Website').fill('https://acme.example.com');
    await create.getByRole('button', { name: 'Create Partner' }).click();
    // The first password, shown once for the operator to hand over.
    expect((await create.getByTestId('temporary-password').innerText()).trim().length).toBeGreaterThan(10);
    await expectAccessible(page, 'back-office new partner password');
    await create.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'Acme Games', level: 1 }).waitFor();
    await expectAccessible(page, 'back-office partner detail');
    await shot(page, 'backoffice-partner-1280');
    await page.getByRole('button', { name: 'Regenerate API Key' }).click();
    const regenerate = page.getByRole('dialog', { name: 'Regenerate API Key' });
    await regenerate.getByRole('button', { name: 'Regenerate' }).click();
    expect((await page.getByTestId('new-api-key').innerText()).trim().length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Done' }).click();
    await nav.getByRole('link', { name: 'Tokens & OAuth' }).click();
    await page.getByRole('heading', { name: 'Tokens & OAuth', level: 1 }).waitFor();
    await expectAccessible(page, 'back-office tokens');
    await nav.getByRole('link', { name: 'Users' }).click();
    const userRow = page.getByTestId('user-row').filter({ hasText: subject.email });
    await userRow.getByText('Partially Verified').waitFor();
    await expectAccessible(page, 'back-office users');
    await shot(page, 'backoffice-users-1280');
    // At 1280 px the row's actions are on screen without scrolling the table sideways, and the row opens the user.
    for (const action of ['View', 'Edit', 'Delete']) {
      const box = await userRow.getByRole('button', { name: `${action} ${subject.email}` }).boundingBox();
      expect(box, `${action} at 1280 px`).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0), `${action} at 1280 px`).toBeLessThanOrEqual(1280);
    }
    await userRow.getByText('Partially Verified').click();
    const userDetails = page.getByRole('dialog', { name: 'User details' });
    await userDetails.getByText(subject.email).first().waitFor();
    await page.keyboard.press('Escape');
    await userDetails.waitFor({ state: 'hidden' });
    // Add User, with the first password shown once.
    await page.getByRole('button', { name: 'Add User' }).click();
    const addUser = page.getByRole('dialog', { name: 'Add User' });
    await addUser.getByLabel('Email').fill(uniqueEmail('added'));
    await addUser.getByLabel('Full name').fill('Added By Admin');
    await addUser.getByLabel(/Show a one-time password/).check();
    await addUser.getByRole('button', { name: 'Add User' }).click();
    expect((await addUser.getByTestId('user-temporary-password').innerText()).trim().length).toBeGreaterThan(
      10,
    );
    await expectAccessible(page, 'back-office added user password');
    await addUser.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('dialog', { name: 'User details' }).getByText('Added By Admin').first().waitFor();
    await page.keyboard.press('Escape');

    // The same pages at 360 px: no sideways scrolling of the page, menu behind a toggle, still accessible.
    await page.setViewportSize(MOBILE);
    for (const [link, name, path] of [
      ['Dashboard', 'dashboard', '/backoffice'],
      ['Verifications', 'verifications', '/backoffice/verifications'],
      ['Users', 'users', '/backoffice/users'],
      ['Partners', 'partners', '/backoffice/partners'],
      ['Tokens & OAuth', 'tokens', '/backoffice/tokens'],
      ['Audit Logs', 'audit', '/backoffice/audit'],
    ] as const) {
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: link }).click();
      // The page the link leads to, not the one before it (any page has a heading).
      await expect.poll(() => pathOf(page), { timeout: 15_000 }).toBe(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${name} at 360 px`,
      ).toBeLessThanOrEqual(MOBILE.width);
      await expectAccessible(page, `back-office ${name} at 360 px`);
      await shot(page, `backoffice-${name}-360`);
    }
    // The approval is in the audit log, by this administrator.
    await page.getByTestId('audit-row').filter({ hasText: 'verification.approved' }).first().waitFor();
    await context.close();
  }, 240_000);
});
