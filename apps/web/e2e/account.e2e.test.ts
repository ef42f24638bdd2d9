import { deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countMail,
  expectAccessible,
  horizontalOverflow,
  launchBrowser,
  linkIn,
  newClient,
  registerViaApi,
  screenshot,
  uniqueEmail,
  waitForMail,
} from './support';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const pathOf = (page: Page) => new URL(page.url()).pathname;
const PASSWORD = 'correct horse battery';

async function signIn(page: Page, email: string, password: string, remember: boolean) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  if (remember) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => pathOf(page)).toBe('/dashboard');
  await page.getByRole('heading', { name: /Welcome back/ }).waitFor();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
}

/** A 1×1 PNG, enough for the server's magic-byte sniffing. */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 67, 56, 202]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('accounts in the browser', () => {
  it('registers, signs in for this tab only, survives a reload, is signed out in a new tab, and signs out', async () => {
    const context = await newClient(browser);
    const page = await context.newPage();
    const email = uniqueEmail('ada');
    await page.goto('/register');
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill('something else');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Passwords must match').waitFor();
    await page.getByText('You must accept the terms and privacy policy').waitFor();
    await expectAccessible(page, 'register with errors');
    await screenshot(page, 'register');
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => pathOf(page)).toBe('/login');
    await page.getByText('Account created successfully! Please sign in.').waitFor();
    await expectAccessible(page, 'login');
    await screenshot(page, 'login');

    await signIn(page, email, PASSWORD, false);
    expect(
      await page.evaluate(() => [
        sessionStorage.getItem('userToken')?.slice(0, 4),
        localStorage.getItem('userToken'),
      ]),
    ).toEqual(['atu_', null]);
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome back, Ada' }).waitFor();

    const otherTab = await context.newPage();
    await otherTab.goto('/dashboard');
    await expect.poll(() => pathOf(otherTab)).toBe('/login');
    await otherTab.close();

    await signOut(page);
    await expect.poll(() => pathOf(page)).toBe('/login');
    expect(await page.evaluate(() => sessionStorage.getItem('userToken'))).toBeNull();
    await page.goto('/dashboard');
    await expect.poll(() => pathOf(page)).toBe('/login');
    await context.close();
  });

  it('with remember me stays signed in in a new tab, and keeps signed-in users away from guest pages', async () => {
    const context = await newClient(browser);
    const email = uniqueEmail('grace');
    await registerViaApi(context, { full_name: 'Grace Hopper', email, password: PASSWORD });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).first().waitFor();

    await signIn(page, email, PASSWORD, true);
    expect(
      await page.evaluate(() => [
        localStorage.getItem('userToken')?.slice(0, 4),
        sessionStorage.getItem('userToken'),
      ]),
    ).toEqual(['atu_', null]);
    const otherTab = await context.newPage();
    await otherTab.goto('/profile');
    await otherTab.getByRole('heading', { name: 'Profile settings' }).waitFor();
    for (const guestPage of ['/login', '/register']) {
      await otherTab.goto(guestPage);
      await expect.poll(() => pathOf(otherTab)).toBe('/dashboard');
    }
    // The public header offers the dashboard to a signed-in visitor.
    await otherTab.goto('/news');
    await otherTab.getByRole('link', { name: 'Dashboard' }).first().waitFor();
    await context.close();
  });

  it('edits the profile and photo, changes the password, verifies the email, and signs out', async () => {
    const context = await newClient(browser);
    const email = uniqueEmail('alan');
    await registerViaApi(context, { full_name: 'Alan Turing', email, password: PASSWORD });
    const page = await context.newPage();
    await signIn(page, email, PASSWORD, false);
    await expect.poll(() => page.getByText('Not verified', { exact: true }).first().isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Verify now' }).getAttribute('href')).toBe('/verification');
    await expectAccessible(page, 'dashboard');
    await screenshot(page, 'dashboard');

    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Profile' }).click();
    const save = page.getByRole('button', { name: 'Save changes' });
    await save.waitFor();
    expect(await save.isDisabled()).toBe(true);
    const country = page.getByRole('combobox', { name: 'Country' });
    await country.click();
    await country.fill('united king');
    await page.getByRole('option', { name: 'United Kingdom' }).click();
    await page.getByLabel('City').fill('Wilmslow');
    expect(await save.isEnabled()).toBe(true);
    await save.click();
    await page.getByText('Profile updated successfully!').waitFor();
    await page
      .getByLabel('Profile photo')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng() });
    await page.getByRole('img', { name: 'Preview of the new profile photo' }).waitFor();
    await page.getByRole('button', { name: 'Upload photo' }).click();
    await page.getByText('Profile photo updated').waitFor();
    expect(await page.getByRole('img', { name: 'Your profile photo' }).getAttribute('src')).toMatch(
      /^\/api\/v1\/media\/profile-photos\//,
    );
    await page.reload();
    await expect.poll(() => page.getByLabel('City').inputValue()).toBe('Wilmslow');
    expect(await page.getByRole('combobox', { name: 'Country' }).inputValue()).toBe('United Kingdom');
    await expectAccessible(page, 'profile');
    await screenshot(page, 'profile');

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new secret');
    await page.getByLabel('Confirm new password').fill('a brand new secret');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Current password is incorrect').waitFor();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed. Other sessions have been signed out.').waitFor();

    // Sign-up already mailed a link; asking again replaces it, so the test waits for the new mail.
    const earlier = await countMail(email, /Confirm your e-mail address/);
    await page.getByRole('button', { name: 'Send verification email' }).click();
    const mail = await waitForMail(email, /Confirm your e-mail address/, earlier);
    await page.getByRole('listitem').filter({ hasText: 'This device' }).waitFor();
    await expectAccessible(page, 'security');
    await screenshot(page, 'security');

    for (const link of ['Verification', 'Connected sites']) {
      await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: link }).click();
      await page.getByRole('heading', { name: link, level: 1 }).waitFor();
      await expectAccessible(page, link);
      await screenshot(page, link.toLowerCase().replace(' ', '-'));
    }

    // The mailed link is a short path (/confirm-email/<token>) that the app turns into the verification page.
    const confirmLink = /https?:\/\/\S+(\/confirm-email\/[\w-]+)$/m.exec(mail.text)?.[1];
    expect(confirmLink).toBeDefined();
    await page.goto(confirmLink as string);
    await page.getByText('Your email address is verified.').waitFor();
    await screenshot(page, 'verify-email');
    await page.goto('/profile');
    const emailRow = page
      .locator('section', { has: page.getByRole('heading', { name: 'Verification' }) })
      .getByRole('listitem')
      .first();
    await expect.poll(() => emailRow.textContent()).toBe('EmailVerified');

    await signOut(page);
    await expect.poll(() => pathOf(page)).toBe('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).first().waitFor();
    await signIn(page, email, 'a brand new secret', false);
    await context.close();
  });

  it('sends a user whose session was revoked elsewhere to /login on the next call, once', async () => {
    const context = await newClient(browser);
    const email = uniqueEmail('barbara');
    await registerViaApi(context, { full_name: 'Barbara Liskov', email, password: PASSWORD });
    const page = await context.newPage();
    await signIn(page, email, PASSWORD, true);
    const other = await context.request.post('/api/v1/users/login', { data: { email, password: PASSWORD } });
    const otherToken = ((await other.json()) as { access_token: string }).access_token;
    const auth = { Authorization: `Bearer ${otherToken}` };
    const list = (await (await context.request.get('/api/v1/users/sessions', { headers: auth })).json()) as {
      sessions: Array<{ id: string; current: boolean }>;
    };
    const browserSession = list.sessions.find((session) => !session.current);
    expect(browserSession).toBeDefined();
    expect(
      (
        await context.request.delete(`/api/v1/users/sessions/${browserSession?.id}`, { headers: auth })
      ).status(),
    ).toBe(204);

    const navigations: string[] = [];
    page.on(
      'framenavigated',
      (frame) => frame === page.mainFrame() && navigations.push(new URL(frame.url()).pathname),
    );
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Security' }).click();
    await expect.poll(() => pathOf(page)).toBe('/login');
    expect(await page.evaluate(() => localStorage.getItem('userToken'))).toBeNull();
    await page.waitForTimeout(500);
    expect(navigations.filter((path) => path === '/login')).toHaveLength(1);
    await context.close();
  });

  it('resets a forgotten password through the mailed link', async () => {
    const context = await newClient(browser);
    const email = uniqueEmail('katherine');
    await registerViaApi(context, { full_name: 'Katherine Johnson', email, password: PASSWORD });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    // /login has an Email field too: wait for the lazily loaded reset page before filling in.
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(/we have sent a link to reset the password/).waitFor();
    await expectAccessible(page, 'forgot-password');
    await screenshot(page, 'forgot-password');
    const mail = await waitForMail(email, /Reset your Attestly password/);
    await page.goto(linkIn(mail, '/reset-password'));
    await page.getByLabel('New password', { exact: true }).fill('orbital mechanics');
    await page.getByLabel('Confirm new password').fill('orbital mechanic');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Passwords must match').waitFor();
    await expectAccessible(page, 'reset-password');
    await screenshot(page, 'reset-password');
    await page.getByLabel('Confirm new password').fill('orbital mechanics');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => pathOf(page)).toBe('/login');
    await signIn(page, email, 'orbital mechanics', false);
    await context.close();
  });

  it('works at 360 px in the user area, and deletes the account from a focus-trapping dialog', async () => {
    const context = await newClient(browser, { mobile: true });
    const email = uniqueEmail('margaret');
    await registerViaApi(context, { full_name: 'Margaret Hamilton', email, password: PASSWORD });
    const page = await context.newPage();
    await signIn(page, email, PASSWORD, false);
    for (const path of ['/dashboard', '/profile', '/security', '/verification', '/tokens']) {
      await page.goto(path);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      const overflow = await horizontalOverflow(page);
      expect(overflow, `horizontal overflow on ${path}`).toBeLessThanOrEqual(0);
      await screenshot(page, `mobile${path.replace(/\//g, '-')}`);
    }
    await page.goto('/security');
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.waitFor();
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    }
    await expectAccessible(page, 'delete dialog');
    await screenshot(page, 'mobile-delete-dialog');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByText('Password is required').waitFor();
    await dialog.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await expect.poll(() => pathOf(page)).toBe('/');
    await page.getByText('Your account has been deleted').waitFor();
    const login = await context.request.post('/api/v1/users/login', { data: { email, password: PASSWORD } });
    expect(login.status()).toBe(401);
    await context.close();
  });
});
