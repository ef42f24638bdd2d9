import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { launchChromium } from './chromium';

export const baseUrl = () => inject('baseUrl');

const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');

/** One browser per test file. */
export const launchBrowser = launchChromium;

export const MOBILE = { width: 360, height: 740 };

/** A fresh browser profile that the server sees as its own client address. */
export async function newClient(
  browser: Browser,
  options: { mobile?: boolean } = {},
): Promise<BrowserContext> {
  const bytes = randomBytes(3);
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: options.mobile ? MOBILE : { width: 1280, height: 900 },
    isMobile: options.mobile ?? false,
    hasTouch: options.mobile ?? false,
    extraHTTPHeaders: { 'X-Forwarded-For': `10.${bytes[0]}.${bytes[1]}.${bytes[2]}` },
  });
  context.setDefaultTimeout(15_000);
  return context;
}

/**
 * How far the page reaches past the right edge of a `width`-px screen (0 when it fits). Measured against the
 * configured width, not `window.innerWidth`: in a mobile context Chromium widens the layout viewport to fit content
 * that overflows, so `scrollWidth - innerWidth` reads 0 on exactly the pages that scroll sideways.
 */
export async function horizontalOverflow(page: Page, width = MOBILE.width): Promise<number> {
  const layout = await page.evaluate(() => ({
    scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
    innerWidth: window.innerWidth,
  }));
  return Math.max(layout.scrollWidth, layout.innerWidth) - width;
}

export const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

/** A full-page screenshot kept as a test artifact. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe-core in the page (WCAG 2.1 A/AA rules) and fails on any serious or critical violation. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  // Judge the settled page: a colour transition caught half-way (a filter chip just selected) reads as low contrast.
  // Finite animations only (a spinner never finishes); one cancelled by a newer transition rejects, and the newer one
  // is awaited in the next round.
  await page.evaluate(async () => {
    for (let round = 0; round < 10; round += 1) {
      const running = document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity,
        );
      if (running.length === 0) return;
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
    }
  });
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target.map(String) })),
    }));
  });
  const serious = (violations as AxeViolation[]).filter(
    (item) => item.impact === 'serious' || item.impact === 'critical',
  );
  expect(
    serious.map(
      (item) =>
        `${item.id} (${item.impact}): ${item.help} at ${item.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
    `axe violations on ${name}`,
  ).toEqual([]);
}

export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

async function mailsTo(to: string, subject: RegExp): Promise<Mail[]> {
  const mails = (await (await fetch(inject('mailUrl'))).json()) as Mail[];
  return mails.filter((mail) => mail.to.includes(to) && subject.test(mail.subject));
}

/** How many mails to `to` with a matching subject have arrived so far. */
export async function countMail(to: string, subject: RegExp): Promise<number> {
  return (await mailsTo(to, subject)).length;
}

/**
 * Waits for a mail to `to` whose subject matches and returns it; with `after`, for one more than that many (a later
 * mail of the same kind replaces the link of an earlier one).
 */
export async function waitForMail(to: string, subject: RegExp, after = 0, timeoutMs = 10_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailsTo(to, subject))[after];
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail #${after + 1} to ${to} matching ${subject}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** The first link of the app in a mail body, made relative so the page opens it on the test server. */
export function linkIn(mail: Mail, pathPrefix: string): string {
  const match = new RegExp(`https?://[^\\s]+(${pathPrefix.replace(/\//g, '\\/')}\\?token=[^\\s]+)`).exec(
    mail.text,
  );
  if (!match?.[1]) throw new Error(`no ${pathPrefix} link in mail "${mail.subject}"`);
  return match[1];
}

/** Registers an account through the API, from the given client address. */
export async function registerViaApi(
  context: BrowserContext,
  user: { full_name: string; email: string; password: string },
) {
  const response = await context.request.post('/api/v1/users/register', { data: user });
  expect(response.status()).toBe(201);
}

/**
 * A page signed in as a new user (registered and signed in through the API) at `width` px, on `origin` (the suite's
 * server by default), speaking from the client address `from` (X-Forwarded-For, which the test servers trust).
 */
export async function signedInUserPage(
  browser: Browser,
  options: { width: number; from: string; origin?: string; fullName?: string },
): Promise<Page> {
  const mobile = options.width === MOBILE.width;
  const context = await browser.newContext({
    baseURL: options.origin ?? baseUrl(),
    viewport: mobile ? MOBILE : { width: options.width, height: 900 },
    isMobile: mobile,
    hasTouch: mobile,
    extraHTTPHeaders: { 'X-Forwarded-For': options.from },
  });
  context.setDefaultTimeout(15_000);
  const email = uniqueEmail(`user-${options.width}`);
  const password = 'correct horse battery';
  const registered = await context.request.post('/api/v1/users/register', {
    data: { full_name: options.fullName ?? 'Ada Lovelace', email, password },
  });
  expect(registered.status()).toBe(201);
  const login = await context.request.post('/api/v1/users/login', { data: { email, password } });
  const token = ((await login.json()) as { access_token: string }).access_token;
  await context.addInitScript((value) => window.sessionStorage.setItem('userToken', value), token);
  return context.newPage();
}

/** A proven age as a document verification leaves it (no screen can make one without a real passport). */
export function proveAgeInDatabase(userId: string, minAge: number, method = 'document') {
  const db = new Database(inject('databaseFile'));
  const stamp = (time: Date) => time.toISOString().replace('T', ' ').replace('Z', ' +00:00');
  const now = new Date();
  const until = new Date(now.getTime() + 365 * 86_400_000);
  db.prepare(
    `INSERT INTO verifications (id, user_id, verification_type, verification_method, status, confidence_score,
       age_threshold, needs_manual_review, message, result_details, review_notes, sandbox, expires_at, created_at, updated_at)
     VALUES (?, ?, 'age', ?, 'approved', 0.97, 18, 0, 'approved', ?, '[]', 0, ?, ?, ?)`,
  ).run(
    randomUUID(),
    userId,
    method,
    JSON.stringify({ proves: { minAge } }),
    stamp(until),
    stamp(now),
    stamp(now),
  );
  db.prepare(
    'UPDATE users SET proven_min_age = ?, age_verified_at = ?, age_verified_until = ? WHERE id = ?',
  ).run(minAge, stamp(now), stamp(until), userId);
  db.close();
}

/** A wallet the operator registered (`attestly wallet clients add`), written where the CLI writes it. */
export function registerWalletClient(clientId: string, name: string, redirectUris: string[]) {
  const db = new Database(inject('databaseFile'));
  db.prepare(
    'INSERT INTO wallet_clients (client_id, name, redirect_uris, created_at) VALUES (?, ?, ?, ?)',
  ).run(
    clientId,
    name,
    JSON.stringify(redirectUris),
    new Date().toISOString().replace('T', ' ').replace('Z', ' +00:00'),
  );
  db.close();
}
