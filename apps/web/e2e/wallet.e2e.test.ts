import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  postPresentation,
  presentSdJwt,
  readPresentationRequest,
  receiveCredentials,
} from '../../api/test/wallet-helpers';
import {
  baseUrl,
  expectAccessible,
  horizontalOverflow,
  launchBrowser,
  linkIn,
  newClient,
  proveAgeInDatabase,
  screenshot,
  uniqueEmail,
  waitForMail,
} from './support';

/**
 * Wallet credentials in Chromium (issue 24): "Add to wallet" on the dashboard, and "Use a wallet" on the sign-in
 * screen of a partner's authorization request, answered by the test wallet over HTTP; screens at 1280 and 360 px.
 */
const PASSWORD = 'correct horse battery';
const api = async (path: string, body: unknown, bearer?: string) => {
  const response = await fetch(`${baseUrl()}/api/v1${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-For': `10.${randomBytes(3).join('.')}`,
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

let browser: Browser;
let authorizeUrl: string;
/** The partner's callback: a page that only says it was reached (the code exchange is the API tests' part). */
let partner: Server;
let callback = '';
const user = { full_name: 'Ada Lovelace', email: uniqueEmail('ada'), password: PASSWORD };
let userToken = '';

beforeAll(async () => {
  browser = await launchBrowser();
  partner = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end('<!doctype html><html lang="en"><title>Partner</title><h1>Partner</h1></html>');
  });
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  callback = `http://127.0.0.1:${(partner.address() as AddressInfo).port}/callback`;
  const account = { email: uniqueEmail('wallet-partner'), password: 'partner password 1' };
  expect(
    (await api('/partners/register', { ...account, company_name: 'Night Club', business_type: 'Gaming' }))
      .status,
  ).toBe(201);
  const link = linkIn(
    await waitForMail(account.email, /Confirm your e-mail address/),
    '/partner/verify-email',
  );
  expect(
    (await api('/partners/verify-email', { token: new URL(link, baseUrl()).searchParams.get('token') }))
      .status,
  ).toBe(200);
  const login = await api('/partners/login', account);
  const site = await api(
    '/partners/sites',
    {
      site_name: 'Night Club Tickets',
      domain: 'localhost',
      redirect_uris: [callback],
      allowed_scopes: ['basic_info', 'AGE_18'],
    },
    String(login.body.access_token),
  );
  expect(site.status).toBe(201);
  const query = new URLSearchParams({
    client_id: String(site.body.client_id),
    redirect_uri: callback,
    response_type: 'code',
    scope: 'openid basic_info AGE_18',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'wallet-e2e',
  });
  authorizeUrl = `${baseUrl()}/oauth2/authorize?${query.toString()}`;
  expect((await api('/users/register', user)).status).toBe(201);
  const signedIn = await api('/users/login', { email: user.email, password: PASSWORD });
  userToken = String(signedIn.body.access_token);
  proveAgeInDatabase(String((signedIn.body.user as { id: string }).id), 20);
});

afterAll(async () => {
  await browser?.close();
  partner?.closeAllConnections();
  await new Promise<void>((resolve) => (partner ? partner.close(() => resolve()) : resolve()));
});

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function signIn(page: Page, email = user.email) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => pathOf(page)).toBe('/dashboard');
}

describe('wallet credentials in the browser', () => {
  for (const mobile of [false, true]) {
    const width = mobile ? 360 : 1280;
    it(`offers the proof of age to a wallet from the dashboard, with QR code and transaction code (${width} px)`, async () => {
      const context = await newClient(browser, { mobile });
      const page = await context.newPage();
      await signIn(page);
      await page.getByRole('heading', { name: 'Add to wallet' }).waitFor();
      await page.getByRole('button', { name: 'Show a QR code for my wallet' }).click();
      const code = page.getByLabel('Transaction code');
      await code.waitFor();
      expect(await code.innerText()).toMatch(/^\d{6}$/);
      await page.getByRole('img', { name: /QR code of the credential offer/ }).waitFor();
      await page.getByText(/at least 12, 16, 18 years old, valid until \d{4}-\d{2}-\d{2}/).waitFor();
      await expectAccessible(page, 'dashboard wallet offer');
      if (mobile) expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `wallet-offer-${width}`);
      await context.close();
    });
  }

  it('tells a user whose age was only estimated from a face why no credential can be offered', async () => {
    const face = { full_name: 'Face Only', email: uniqueEmail('face'), password: PASSWORD };
    expect((await api('/users/register', face)).status).toBe(201);
    const signedIn = await api('/users/login', { email: face.email, password: PASSWORD });
    proveAgeInDatabase(String((signedIn.body.user as { id: string }).id), 30, 'facial_recognition');
    const context = await newClient(browser);
    const page = await context.newPage();
    await signIn(page, face.email);
    await page.getByRole('button', { name: 'Show a QR code for my wallet' }).click();
    await page.getByText(/Wallet credentials need an age proven with an identity document/).waitFor();
    expect(await page.getByLabel('Transaction code').count()).toBe(0);
    await context.close();
  });

  it('signs a partner in with a wallet presentation: QR code on the sign-in screen, the page finishes by itself', async () => {
    const offer = await fetch(`${baseUrl()}/api/v1/wallet/offers`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${userToken}` },
      body: JSON.stringify({ same_device: true }),
    });
    const { received } = await receiveCredentials(((await offer.json()) as { offer_url: string }).offer_url, {
      count: 2,
      configurations: ['age_sd_jwt'],
    });
    for (const [index, mobile] of [false, true].entries()) {
      const width = mobile ? 360 : 1280;
      const context = await newClient(browser, { mobile });
      const page = await context.newPage();
      // On the phone the site names the wallet path (acr_values): the wallet comes first, before the password form.
      await page.goto(mobile ? `${authorizeUrl}&acr_values=urn%3Aattestly%3Aacr%3Awallet` : authorizeUrl);
      await expect.poll(() => pathOf(page)).toBe('/oauth/login');
      await page
        .getByRole('heading', { name: mobile ? 'Use your wallet' : 'Use a wallet instead' })
        .waitFor();
      if (mobile) {
        const [walletTop, emailTop] = await Promise.all([
          page
            .getByRole('heading', { name: 'Use your wallet' })
            .evaluate((node) => node.getBoundingClientRect().top),
          page.getByLabel('Email').evaluate((node) => node.getBoundingClientRect().top),
        ]);
        expect(walletTop).toBeLessThan(emailTop);
      }
      await page.getByRole('button', { name: 'Use a wallet' }).click();
      await page.getByRole('img', { name: /QR code of the wallet request/ }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Waiting for your wallet' }).waitFor();
      await expectAccessible(page, 'sign-in with a wallet');
      if (mobile) expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `wallet-sign-in-${width}`);

      const walletUrl = await page
        .getByRole('link', { name: 'Open the wallet on this device' })
        .getAttribute('href');
      const request = readPresentationRequest(String(walletUrl));
      const credential = received.age_sd_jwt!.credentials[index] as string;
      const answer = await postPresentation(request, {
        attestly_age: [await presentSdJwt(credential, received.age_sd_jwt!.keys[index]!, request)],
      });
      expect(answer.status).toBe(200);
      await page.waitForURL((url) => url.href.startsWith(`${callback}?code=`));
      expect(new URL(page.url()).searchParams.get('state')).toBe('wallet-e2e');
      await context.close();
    }
  });
});
