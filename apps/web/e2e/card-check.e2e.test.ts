import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { bootstrap } from '../../api/src/bootstrap';
import { loadConfig } from '../../api/src/config';
import { createLogger } from '../../api/src/logger';
import { startStripeFake } from '../../api/test/stripe-fake';
import {
  MOBILE,
  baseUrl,
  expectAccessible,
  horizontalOverflow,
  launchBrowser,
  screenshot,
  signedInUserPage,
} from './support';

/**
 * The credit-card age check in a real browser (issue 25 item 1). This file runs its own appliance configured with
 * Stripe — pointed at the local server that speaks Stripe's wire protocol, which also serves the Stripe.js
 * stand-in — beside the suite's server, which has no Stripe: there nothing may mention card checks.
 */
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
let browser: Browser;
let stripe: Awaited<ReturnType<typeof startStripeFake>>;
let server: Server;
let withStripe: string;
let close: () => Promise<void>;
beforeAll(async () => {
  browser = await launchBrowser();
  stripe = await startStripeFake({
    secretKey: 'sk_test_e2e_card',
    webhookSecret: 'whsec_unused',
    publishableKey: 'pk_test_e2e_card',
  });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-e2e-card-'));
  const config = loadConfig({
    ATTESTLY_DATA_DIR: dataDir,
    ATTESTLY_PUBLIC_URL: 'http://127.0.0.1:0',
    ATTESTLY_WEB_DIR: dist,
    ATTESTLY_PASSWORD_COST: '12',
    ATTESTLY_TRUST_PROXY: 'true',
    ATTESTLY_VISION: 'false',
    LOG_LEVEL: 'error',
    STRIPE_SECRET_KEY: 'sk_test_e2e_card',
    ATTESTLY_STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e_card',
    ATTESTLY_STRIPE_API_URL: stripe.apiUrl,
    ATTESTLY_STRIPE_JS_URL: stripe.stripeJsUrl,
  });
  const deps = await bootstrap(config, createLogger(config));
  const { app } = createApp(deps);
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  withStripe = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await deps.db.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(async () => {
  await browser?.close();
  await close?.();
  await stripe?.close();
});

const signedIn = (origin: string, width: number) =>
  signedInUserPage(browser, {
    width,
    origin,
    from: `10.9.${width % 250}.${Math.floor(Math.random() * 250)}`,
  });

describe.each([1280, MOBILE.width])('the card check with Stripe at %i px', (width) => {
  it('says only credit cards count, refuses a debit card, then proves 18+ with a credit card and 3-D Secure', async () => {
    const page = await signedIn(withStripe, width);
    // A partner's verify_url opens the card check directly.
    await page.goto('/verification?method=credit_card');
    await page.getByRole('tab', { name: /Credit card/, selected: true }).waitFor();
    await page.getByText(/only credit cards\s+prove an age/).waitFor();
    const submit = page.getByRole('button', { name: 'Verify with my credit card' });
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await page.getByText('Cardholder name is required').waitFor();
    await page.getByText('Card number is required').waitFor();
    await expectAccessible(page, `card-check-${width}`);
    await screenshot(page, `verification-card-form-${width}`);
    expect(await horizontalOverflow(page, width)).toBe(0);

    await page.getByLabel('Cardholder name').fill('Ada Lovelace');
    await page.getByLabel('Card number').fill('5200 8282 8282 8210');
    await submit.click();
    await page.getByText('Credit card verification initiated!').waitFor();
    await page
      .getByText(/Only a credit card can prove your age/)
      .first()
      .waitFor();

    await page.getByLabel('Card number').fill('4000 0025 0000 3155');
    await submit.click();
    await page.getByRole('status').filter({ hasText: 'Age verified' }).waitFor();
    await screenshot(page, `verification-card-approved-${width}`);
    expect(await horizontalOverflow(page, width)).toBe(0);
    // The number went to Stripe, never to the appliance.
    const toStripe = stripe.calls.filter((call) => call.path.endsWith('/confirm'));
    expect(JSON.stringify(toStripe.at(-1)?.body)).toContain('4000002500003155');
    await page.goto('/profile');
    await expect
      .poll(() => page.getByRole('listitem').filter({ hasText: /^Age/ }).first().textContent())
      .toContain('Verified');
    await page.context().close();
  });
});

describe('a server without Stripe', () => {
  it('mentions card checks nowhere: methods, home page, guide, privacy, terms and the data download', async () => {
    const page = await signedIn(baseUrl(), 1280);
    await page.goto('/verification?method=credit_card');
    await page.getByRole('tab', { name: /Camera/, selected: true }).waitFor();
    expect(await page.getByRole('tab', { name: /Credit card/i }).count()).toBe(0);
    for (const route of ['/', '/docs/guide', '/privacy', '/terms', '/security']) {
      await page.goto(route);
      await page.locator('main').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect((await page.locator('body').innerText()).toLowerCase(), route).not.toMatch(
        /credit card|payment card|card check|card details/,
      );
    }
    await page.context().close();
  });
});
