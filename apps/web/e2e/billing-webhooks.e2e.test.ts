import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newClient, screenshot, uniqueEmail } from './support';

/**
 * Plans, subscription and webhooks screens (spec 01 §2, §8, §9) against the real API, which runs here without
 * Stripe: billing is off, the screens say so, and the checkout confirmation shows the server's message.
 */
let browser: Browser;
let context: BrowserContext;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  context = await newClient(browser);
  const email = uniqueEmail('billing');
  const password = 'partner password 1';
  const registered = await context.request.post('/api/v1/partners/register', {
    data: { email, password, company_name: 'Billing Test Ltd', business_type: 'Gaming' },
  });
  expect(registered.status()).toBe(201);
  const login = await context.request.post('/api/v1/partners/login', { data: { email, password } });
  const token = ((await login.json()) as { access_token: string }).access_token;
  await context.addInitScript((value) => window.localStorage.setItem('partnerToken', value), token);
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
});

const pathOf = () => new URL(page.url()).pathname;

describe('plans and subscription screens', () => {
  it('shows the plan cards, the current plan and that online billing is off', async () => {
    await page.goto('/partner/plans');
    for (const name of ['Free', 'Starter', 'Growth', 'Scale']) {
      await page.getByRole('listitem', { name: `${name} plan` }).waitFor();
    }
    // Without Stripe nothing is charged: quotas, but no price on any card (issue 25 item 8).
    await expect
      .poll(() => page.getByRole('listitem', { name: 'Growth plan' }).textContent())
      .toContain('10,000 verifications per month');
    expect(await page.getByRole('list').filter({ hasText: 'Growth' }).first().textContent()).not.toMatch(
      /\$/,
    );
    await page.getByRole('button', { name: 'Current plan' }).waitFor();
    await page.getByText('Online billing is not available on this server.').first().waitFor();
    await expectAccessible(page, 'plans');
    await screenshot(page, 'partner-plans');
    await page.getByRole('link', { name: 'Back to dashboard' }).waitFor();
  });

  it('shows plan, status and the usage bar; a session_id toasts once and leaves the address', async () => {
    await page.goto('/partner/subscription?session_id=cs_test_123');
    await page.getByText('Subscription activated successfully!').waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    expect(pathOf()).toBe('/partner/subscription');
    const bar = page.getByRole('progressbar', { name: 'Monthly verification usage' });
    await bar.waitFor();
    expect(await bar.getAttribute('aria-valuenow')).toBe('0');
    expect(await bar.getAttribute('data-color')).toBe('blue');
    // New partners start on Free; no price and no billing date while billing is off.
    await page
      .getByRole('definition')
      .filter({ hasText: /^Free$/ })
      .waitFor();
    expect(await page.getByText('Next billing date').count()).toBe(0);
    await page.getByText('0 of 100 verifications this month').waitFor();
    await expectAccessible(page, 'subscription');
  });

  it('needs a session id on the success page and offers a way back', async () => {
    await page.goto('/partner/subscription-success');
    await page.getByText('No session ID provided').waitFor();
    await page.getByRole('link', { name: 'Back to Dashboard' }).waitFor();
    await page.getByRole('link', { name: 'Try Again' }).click();
    await expect.poll(pathOf).toBe('/partner/plans');
  });

  it("shows the server's reason when the confirmation fails", async () => {
    await page.goto('/partner/subscription-success?session_id=cs_test_unknown');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Online billing is not available on this server.' })
      .waitFor();
    await page.getByText('Failed to activate subscription').waitFor();
    // No redirect to the subscription page after a failure.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(pathOf()).toBe('/partner/subscription-success');
  });
});

describe('partner dashboard and management', () => {
  it("shows this month's usage on the dashboard and the webhooks section in management", async () => {
    await page.goto('/partner/dashboard');
    await page.getByRole('heading', { name: 'Usage · Free plan' }).waitFor();
    await page.getByRole('progressbar', { name: 'Monthly verification usage' }).waitFor();
    await page.goto('/partner/management');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'Add webhook' }).waitFor();
  });
});

describe('webhooks screen', () => {
  it('registers an endpoint, shows its secret once, and refuses a plain-http URL', async () => {
    await page.goto('/partner/webhooks');
    await page.getByText('No webhooks yet.').waitFor();
    await page.getByLabel('Endpoint URL').fill('http://hooks.example.com/attestly');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Webhook URL must use https').waitFor();
    await page.getByLabel('Endpoint URL').fill('https://hooks.example.com/attestly');
    await page.getByLabel('token.expired').uncheck();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Signing secret — copy it now, it is not shown again.').waitFor();
    await expect
      .poll(() =>
        page
          .locator('code')
          .filter({ hasText: /^whsec_/ })
          .count(),
      )
      .toBe(1);
    await page.getByText('https://hooks.example.com/attestly').waitFor();
    await page
      .getByText('verification.completed, verification.failed, token.revoked', { exact: false })
      .waitFor();
    await expectAccessible(page, 'webhooks');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByText('No deliveries yet.').waitFor();
    await screenshot(page, 'partner-webhooks');
  });
});
