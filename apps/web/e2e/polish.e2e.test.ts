import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  newClient,
  registerViaApi,
  screenshot,
  uniqueEmail,
} from './support';

/** The rough edges a new user met (issue 16 items 11–12), checked in a real browser at both widths. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PASSWORD = 'a long enough password';

async function signedIn(mobile: boolean): Promise<Page> {
  const context = await newClient(browser, { mobile });
  const email = uniqueEmail('polish');
  await registerViaApi(context, { full_name: 'Polly Polish', email, password: PASSWORD });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
  return page;
}

describe('polish', () => {
  it('keeps the open account menu above a notification, at 1280 and 360 px', async () => {
    for (const mobile of [false, true]) {
      const page = await signedIn(mobile);
      // "Login successful!" is still showing (toasts last 4 s); open the menu over it.
      const toast = page.getByTestId('toast').first();
      await toast.waitFor();
      await page.getByRole('button', { name: /Account menu/ }).click();
      const signOut = page.getByRole('button', { name: 'Sign out' });
      await signOut.waitFor();
      const covered = await signOut.evaluate((button) => {
        const box = button.getBoundingClientRect();
        const topmost = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return !(topmost === button || button.contains(topmost));
      });
      expect(covered, mobile ? '360 px' : '1280 px').toBe(false);
      const header = await page.locator('header').first().boundingBox();
      const toastBox = await toast.boundingBox();
      // The notification itself sits below the header bar, not on top of it.
      expect(toastBox!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
      await screenshot(page, `polish-menu-over-toast-${mobile ? '360' : '1280'}`);
      await page.context().close();
    }
  });

  it('wraps the account navigation at 360 px instead of hiding links off to the side', async () => {
    const page = await signedIn(true);
    const lists = page.getByRole('navigation', { name: 'Account' }).locator('ul');
    for (const list of await lists.all()) {
      const { scroll, client } = await list.evaluate((element) => ({
        scroll: element.scrollWidth,
        client: element.clientWidth,
      }));
      expect(scroll).toBeLessThanOrEqual(client);
    }
    for (const link of await page.getByRole('navigation', { name: 'Account' }).getByRole('link').all()) {
      const box = (await link.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
    }
    await expectAccessible(page, 'dashboard at 360 px');
    await screenshot(page, 'polish-mobile-navigation');
    await page.context().close();
  });

  it('shows the product on the landing page and a picture of its own on every news card', async () => {
    const context = await newClient(browser);
    const page = await context.newPage();
    await page.goto('/');
    const visual = page.getByRole('img', { name: /partner site asks to confirm that you are 18 or over/ });
    await visual.waitFor();
    expect((await visual.boundingBox())!.width).toBeGreaterThan(200);
    await expectAccessible(page, 'landing');
    await screenshot(page, 'polish-landing');

    await page.goto('/news');
    const cards = page.locator('article');
    await cards.first().waitFor();
    const pictures = await cards.evaluateAll((articles) =>
      articles.map((article) => article.querySelector('svg[data-testid="article-art"]')?.innerHTML ?? ''),
    );
    expect(pictures.length).toBeGreaterThan(1);
    expect(pictures.every((picture) => picture.length > 0)).toBe(true);
    expect(new Set(pictures).size).toBe(pictures.length);
    await screenshot(page, 'polish-news');
    await context.close();
  });
});
