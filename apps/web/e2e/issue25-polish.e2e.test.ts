import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MOBILE,
  expectAccessible,
  horizontalOverflow,
  launchBrowser,
  newClient,
  registerViaApi,
  screenshot,
  uniqueEmail,
} from './support';

/** What a new user and partner still tripped over (issue 25 items 12 and 13), at 1280 and 360 px. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PASSWORD = 'a long enough password';
const WIDTHS = [
  { mobile: false, width: 1280 },
  { mobile: true, width: MOBILE.width },
] as const;
const pathOf = (page: Page) => new URL(page.url()).pathname;
const addressOf = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

/**
 * The page's actions (buttons and links in <main>, and the header's) whose centre a toast covers: the element at
 * that point is part of a toast instead of the action.
 */
async function actionsUnderToasts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const covered: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(
      'main a, main button, header a, header button',
    )) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      if (y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) continue;
      const topmost = document.elementFromPoint(x, y);
      if (topmost?.closest('[data-testid="toast"]'))
        covered.push(element.textContent?.trim() || element.tagName);
    }
    return covered;
  });
}

describe('user area (issue 25 item 12)', () => {
  it('answers an unknown address with a 404 page that fits the screen and leads home', async () => {
    for (const { mobile, width } of WIDTHS) {
      const context = await newClient(browser, { mobile });
      const page = await context.newPage();
      await page.goto('/no/such/page');
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      expect(pathOf(page)).toBe('/no/such/page');
      expect(await page.getByText('/no/such/page').count()).toBe(1);
      expect(await horizontalOverflow(page, width)).toBeLessThanOrEqual(0);
      await expectAccessible(page, `404 at ${width} px`);
      await screenshot(page, `issue25-404-${width}`);
      await page.getByRole('link', { name: 'Home page' }).click();
      await expect.poll(() => pathOf(page)).toBe('/');
      await context.close();
    }
  });

  it('shows a toast without covering the page or its header, and keeps addresses clean', async () => {
    for (const { mobile, width } of WIDTHS) {
      const context = await newClient(browser, { mobile });
      const email = uniqueEmail('toast');
      await registerViaApi(context, { full_name: 'Tessa Toast', email, password: PASSWORD });
      const page = await context.newPage();
      await page.goto('/');
      // Reached from the header, /login carries no empty ?email=&registered=false.
      if (mobile) await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('link', { name: 'Sign in' }).first().click();
      await page
        .getByRole('heading', { name: /Sign in/ })
        .first()
        .waitFor();
      expect(addressOf(page)).toBe('/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/dashboard');
      await page.getByRole('heading', { name: /Welcome back/ }).waitFor();
      // "Login successful!" shows for 4 s: nothing of the dashboard is under it.
      await page.getByTestId('toast').first().waitFor();
      expect(await actionsUnderToasts(page), `${width} px`).toEqual([]);
      // The toast has room of its own: the page starts below it, not under it.
      const toastBottom = await page
        .getByTestId('toast-region')
        .evaluate((region) => region.getBoundingClientRect().bottom);
      const pageTop = await page.locator('main').evaluate((main) => main.getBoundingClientRect().top);
      expect(pageTop).toBeGreaterThanOrEqual(toastBottom - 1);
      expect(await horizontalOverflow(page, width)).toBeLessThanOrEqual(0);
      await screenshot(page, `issue25-toast-dashboard-${width}`);
      // When the toast leaves on its timer nothing on the page moves (a tap aimed at a link would land on the one
      // below it): its room stays until the visitor goes to another page.
      const regionHeight = () =>
        page.getByTestId('toast-region').evaluate((region) => region.getBoundingClientRect().height);
      const mainInDocument = () =>
        page.locator('main').evaluate((main) => main.getBoundingClientRect().top + window.scrollY);
      const kept = await regionHeight();
      const mainBefore = await mainInDocument();
      expect(kept).toBeGreaterThan(20);
      await page.getByTestId('toast').first().waitFor({ state: 'detached', timeout: 15_000 });
      expect(await mainInDocument()).toBe(mainBefore);
      expect(await regionHeight()).toBe(kept);
      // The navigation's /verification has no empty ?return_to=&method=.
      await page
        .getByRole('navigation', { name: 'Account' })
        .getByRole('link', { name: 'Verification' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Verification' }).waitFor();
      expect(addressOf(page)).toBe('/verification');
      // The next page starts right under the header again.
      expect(await regionHeight()).toBe(0);
      await context.close();
    }
  });
});

describe('partner portal (issue 25 item 13)', () => {
  it('keeps a deep link through sign-in and shows every section in the sidebar', async () => {
    for (const { mobile, width } of WIDTHS) {
      const context = await newClient(browser, { mobile });
      const email = uniqueEmail('deep-link');
      const registered = await context.request.post('/api/v1/partners/register', {
        data: { email, password: PASSWORD, company_name: 'Deep Link Ltd', website: 'deeplink.example.com' },
      });
      expect(registered.status()).toBe(201);
      const page = await context.newPage();
      await page.goto('/partner/webhooks');
      await page.getByRole('heading', { name: 'Partner sign in' }).waitFor();
      expect(addressOf(page)).toBe('/partner/login?next=%2Fpartner%2Fwebhooks');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => pathOf(page)).toBe('/partner/webhooks');
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      expect(await actionsUnderToasts(page), `${width} px`).toEqual([]);

      const nav = page.getByRole('navigation', { name: 'Account' });
      for (const name of ['Sites', 'API Keys', 'Webhooks', 'Demo', 'Plans', 'Subscription']) {
        const link = nav.getByRole('link', { name, exact: true });
        const box = (await link.boundingBox())!;
        expect(box.x, name).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, name).toBeLessThanOrEqual(width);
      }
      await nav.getByRole('link', { name: 'API Keys', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      expect(await horizontalOverflow(page, width)).toBeLessThanOrEqual(0);
      await expectAccessible(page, `partner API keys at ${width} px`);
      await screenshot(page, `issue25-partner-api-keys-${width}`);
      await context.close();
    }
  });

  it('registers at /partner/register, with a website typed without https://, onto a success page', async () => {
    for (const { mobile, width } of WIDTHS) {
      const context = await newClient(browser, { mobile });
      const page = await context.newPage();
      const email = uniqueEmail('register');
      await page.goto('/partner/register');
      await page.getByRole('heading', { name: 'Register your company' }).waitFor();
      expect(await horizontalOverflow(page, width)).toBeLessThanOrEqual(0);
      await page.getByLabel('Work email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByLabel('Company name').fill('Bare Website Ltd');
      await page.getByLabel('Website (optional)').fill('shop.example.com');
      await page.getByRole('button', { name: 'Create partner account' }).click();
      await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
      expect(pathOf(page)).toBe('/partner/registered');
      await page.getByText(email).waitFor();
      expect(await actionsUnderToasts(page), `${width} px`).toEqual([]);
      expect(await horizontalOverflow(page, width)).toBeLessThanOrEqual(0);
      await expectAccessible(page, `partner registered at ${width} px`);
      await screenshot(page, `issue25-partner-registered-${width}`);
      await context.close();
    }
  });
});
