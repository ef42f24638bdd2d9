import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, linkIn, uniqueEmail, waitForMail } from './support';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const pathOf = (page: Page) => new URL(page.url()).pathname;
const PARTNER_PASSWORD = 'partner password 1';
const USER_PASSWORD = 'correct horse battery';
/** A public address the on-box GeoLite2 data places in the United States (the user's declared country). */
const US_ADDRESS = '8.8.8.8';

describe('partner portal, from sign-up to a verified user in the statistics', () => {
  it('registers, verifies the e-mail, creates a site, runs the real consent popup and sees the verification', async () => {
    const context = await browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: 1280, height: 900 },
      extraHTTPHeaders: { 'X-Forwarded-For': US_ADDRESS },
    });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    const partnerEmail = uniqueEmail('partner');

    // The public site leads businesses to the portal.
    await page.goto('/');
    await page.getByRole('link', { name: 'For businesses' }).first().click();
    await expect.poll(() => pathOf(page)).toBe('/partner/login');

    // Registration at its own address, a success page, then sign-in with the e-mail prefilled (spec 01 §2, §8;
    // issue 25 item 13). The website is typed as people type it, without https://.
    await page.getByRole('link', { name: 'Register your company' }).click();
    await expect.poll(() => pathOf(page)).toBe('/partner/register');
    await page.getByLabel('Work email').fill(partnerEmail);
    await page.getByLabel('Password').fill(PARTNER_PASSWORD);
    await page.getByLabel('Company name').fill('Acme Games');
    await page.getByLabel('Website (optional)').fill('games.example.com');
    await page.getByRole('button', { name: 'Create partner account' }).click();
    await page
      .getByText('Registration successful! Please check your email to verify your account.')
      .waitFor();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    expect(pathOf(page)).toBe('/partner/registered');
    await page.getByText(partnerEmail).waitFor();
    await page.getByRole('link', { name: 'Go to partner sign-in' }).click();
    await page.getByRole('heading', { name: 'Partner sign in' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(partnerEmail);
    await page.getByLabel('Password').fill(PARTNER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => pathOf(page)).toBe('/partner/dashboard');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const profile = await page.evaluate(async () => {
      const token = sessionStorage.getItem('partnerToken') ?? localStorage.getItem('partnerToken');
      const answer = await fetch('/api/v1/partners/profile', {
        headers: { Authorization: `Bearer ${token}` },
      });
      return (await answer.json()) as { website: string | null };
    });
    expect(profile.website).toBe('https://games.example.com');

    // E-mail verification through the mailed link.
    const mail = await waitForMail(partnerEmail, /Confirm your e-mail address/);
    await page.goto(linkIn(mail, '/partner/verify-email'));
    await page.getByText(/Your email address is verified/).waitFor();

    // A site for the demo (sandbox, returning to this appliance), then the demo configuration.
    await page.goto('/partner/demo');
    await page.getByRole('button', { name: 'Create demo site' }).click();
    await page.getByText('Site added successfully').waitFor();
    await page.getByRole('button', { name: 'Start demo verification' }).waitFor();
    await page.getByLabel('AGE_18').uncheck();
    await page.getByLabel('location_verification').check();

    // A person with an account who has not proven their location yet.
    const userEmail = uniqueEmail('person');
    const api = context.request;
    expect(
      (
        await api.post('/api/v1/users/register', {
          data: { full_name: 'Pat Person', email: userEmail, password: USER_PASSWORD },
        })
      ).status(),
    ).toBe(201);
    const login = await api.post('/api/v1/users/login', {
      data: { email: userEmail, password: USER_PASSWORD },
    });
    const userToken = ((await login.json()) as { access_token: string }).access_token;
    expect(
      (
        await api.put('/api/v1/users/profile', {
          headers: { Authorization: `Bearer ${userToken}` },
          data: { full_name: 'Pat Person', email: userEmail, country: 'US' },
        })
      ).status(),
    ).toBe(200);

    // The real consent popup: sign in, verify now, come back to consent, allow.
    const popupPromise = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Start demo verification' }).click();
    const popup = await popupPromise;
    await popup.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
    await popup.getByText('Returns you to').waitFor();
    await popup.getByLabel('Email').fill(userEmail);
    await popup.getByLabel('Password').fill(USER_PASSWORD);
    await popup.getByRole('button', { name: 'Sign in' }).click();
    await popup.getByRole('heading', { name: 'Share your verification' }).waitFor();
    await popup.getByRole('button', { name: 'Verify now' }).click();
    await popup.getByRole('heading', { name: 'Verification', level: 1 }).waitFor();
    await popup.getByRole('tab', { name: /Location/ }).click();
    await popup.getByRole('button', { name: 'Verify my location' }).click();
    // A success brings the person back to the consent screen by itself.
    await popup.getByRole('heading', { name: 'Share your verification' }).waitFor();
    await popup.getByRole('button', { name: 'Allow', exact: true }).click();

    const result = page.getByTestId('demo-result');
    await result.waitFor();
    expect(await result.textContent()).toContain('Approved');
    const claims = JSON.parse((await page.getByTestId('demo-claims').textContent()) ?? '{}') as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({ location_verified: true, location: { country: 'US' } });
    expect(popup.isClosed()).toBe(true);

    // The verification counts for this partner's (sandbox) site: dashboard, site card and audit log.
    await page.goto('/partner/dashboard');
    const recent = page.getByRole('region', { name: 'Recent verifications' });
    await recent.getByText('location verification').waitFor();
    expect(await recent.getByText('Sandbox').count()).toBe(1);
    await page.getByText('1 sandbox (not counted)').waitFor();
    await page.goto('/partner/sites');
    expect(await page.getByTestId('site-verifications').first().textContent()).toBe('1');
    await page.goto('/partner/audit-logs');
    await page.getByRole('cell', { name: 'verification.completed' }).waitFor();
    await context.close();
  });
});
