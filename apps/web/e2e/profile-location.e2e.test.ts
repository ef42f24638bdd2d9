import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MOBILE,
  expectAccessible,
  horizontalOverflow,
  launchBrowser,
  screenshot,
  signedInUserPage,
} from './support';

/**
 * Every country in the profile, searchable, with the states the location data knows (issue 25 item 3), and a
 * location check that then works there: the client speaks from a Nigerian address (X-Forwarded-For, which the test
 * server trusts), one of the countries the reference's six-country list left out.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each([
  [1280, '102.88.0.1'],
  [MOBILE.width, '102.88.0.2'],
])('profile country and state at %i px', (width, from) => {
  let page: Page;
  beforeAll(async () => {
    page = await signedInUserPage(browser, { width, from, fullName: 'Ngozi Okafor' });
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('finds a country by typing, offers its states, saves them, and the location check approves them', async () => {
    await page.goto('/profile');
    const country = page.getByRole('combobox', { name: 'Country' });
    await country.click();
    await country.fill('nige');
    const options = page.getByRole('listbox', { name: 'Country' }).getByRole('option');
    await expect.poll(() => options.allTextContents()).toEqual(['Niger', 'Nigeria']);
    await screenshot(page, `profile-country-search-${width}`);
    expect(await horizontalOverflow(page, width)).toBe(0);
    await page.getByRole('option', { name: 'Nigeria' }).click();
    expect(await country.inputValue()).toBe('Nigeria');

    const state = page.getByRole('combobox', { name: 'State / region' });
    await state.click();
    await state.fill('rive');
    await page.getByRole('option', { name: 'Rivers State' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Profile updated successfully!').waitFor();
    await page.reload();
    await expect.poll(() => page.getByRole('combobox', { name: 'Country' }).inputValue()).toBe('Nigeria');
    expect(await page.getByRole('combobox', { name: 'State / region' }).inputValue()).toBe('Rivers State');
    await expectAccessible(page, `profile-location-${width}`);
    await screenshot(page, `profile-location-${width}`);
    expect(await horizontalOverflow(page, width)).toBe(0);

    await page.goto('/verification');
    await page.getByRole('tab', { name: /Location/ }).click();
    await page.getByRole('button', { name: 'Verify my location' }).click();
    await page.getByText('Your location is verified: Rivers State, NG.').first().waitFor();
    await screenshot(page, `verification-location-ng-${width}`);
    expect(await horizontalOverflow(page, width)).toBe(0);
  });
});
