import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holderKey } from '../../api/test/wallet-helpers';
import {
  baseUrl,
  expectAccessible,
  horizontalOverflow,
  launchBrowser,
  newClient,
  proveAgeInDatabase,
  registerWalletClient,
  screenshot,
  uniqueEmail,
} from './support';

/**
 * A registered wallet's authorization code flow in Chromium (issue 24 item 3): the wallet opens Attestly's
 * authorization endpoint, the user signs in on the usual screen, the consent screen says what the credentials will
 * state (or why none can be issued), and the browser returns to the wallet's loopback redirect with a code the
 * wallet redeems with its PKCE verifier for a credential.
 */
const PASSWORD = 'correct horse battery';
const WALLET = 'e2e.example.wallet';
let browser: Browser;
/** The wallet's loopback redirect (RFC 8252 §7.3): a page that only says it was reached. */
let walletApp: Server;
let redirectUri = '';

const api = async (path: string, body: unknown) => {
  const response = await fetch(`${baseUrl()}/api/v1${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.${randomBytes(3).join('.')}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

async function provenUser(label: string, minAge: number, method = 'document') {
  const user = { full_name: 'Grace Hopper', email: uniqueEmail(label), password: PASSWORD };
  expect((await api('/users/register', user)).status).toBe(201);
  const signedIn = await api('/users/login', { email: user.email, password: PASSWORD });
  proveAgeInDatabase(String((signedIn.body.user as { id: string }).id), minAge, method);
  return user;
}

function authorization() {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: WALLET,
    redirect_uri: redirectUri,
    scope: 'proof_of_age',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'wallet-e2e',
  });
  return { verifier, url: `${baseUrl()}/oauth2/authorize?${query.toString()}` };
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function signInOnTheScreen(page: Page, email: string) {
  await expect.poll(() => pathOf(page)).toBe('/oauth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => pathOf(page)).toBe('/oauth/consent');
}

beforeAll(async () => {
  browser = await launchBrowser();
  walletApp = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end('<!doctype html><html lang="en"><title>Wallet</title><h1>Wallet</h1></html>');
  });
  await new Promise<void>((resolve) => walletApp.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(walletApp.address() as AddressInfo).port}/callback`;
  registerWalletClient(WALLET, 'Example Wallet', [redirectUri]);
});

afterAll(async () => {
  await browser?.close();
  walletApp?.closeAllConnections();
  await new Promise<void>((resolve) => (walletApp ? walletApp.close(() => resolve()) : resolve()));
});

describe('a registered wallet asks for a credential through the sign-in screens', () => {
  for (const mobile of [false, true]) {
    const width = mobile ? 360 : 1280;
    it(`shows what the credential will state and sends the wallet a code it redeems for one (${width} px)`, async () => {
      const user = await provenUser(`wallet-code-${width}`, 19);
      const { verifier, url } = authorization();
      const context = await newClient(browser, { mobile });
      const page = await context.newPage();
      await page.goto(url);
      await signInOnTheScreen(page, user.email);
      await page.getByText('Proof of age (ISO mdoc, EU age verification)').waitFor();
      await page.getByText('Example Wallet').first().waitFor();
      await page.getByText(/over 18, not over 21/).waitFor();
      await expectAccessible(page, 'wallet consent');
      if (mobile) expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, `wallet-authorization-consent-${width}`);

      await page.getByRole('button', { name: 'Add to wallet' }).click();
      await expect.poll(() => page.url()).toContain(redirectUri);
      const back = new URL(page.url());
      expect(back.searchParams.get('state')).toBe('wallet-e2e');
      const code = back.searchParams.get('code') as string;
      await context.close();

      const token = await fetch(`${baseUrl()}/oauth2/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: WALLET,
          code,
          redirect_uri: redirectUri,
          code_verifier: verifier,
        }),
      });
      expect(token.status).toBe(200);
      const { access_token: accessToken } = (await token.json()) as { access_token: string };
      const { c_nonce: nonce } = (await (
        await fetch(`${baseUrl()}/oauth2/challenge`, { method: 'POST' })
      ).json()) as { c_nonce: string };
      const key = await holderKey();
      const { SignJWT, importJWK } = await import('jose');
      const proof = await new SignJWT({ nonce })
        .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: key.publicJwk })
        .setAudience(`${baseUrl()}/oauth2`)
        .setIssuedAt()
        .sign(await importJWK(key.privateJwk, 'ES256'));
      const credential = await fetch(`${baseUrl()}/oauth2/credential`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` },
        body: JSON.stringify({ credential_configuration_id: 'proof_of_age', proofs: { jwt: [proof] } }),
      });
      expect(credential.status).toBe(200);
      expect(((await credential.json()) as { credentials: unknown[] }).credentials).toHaveLength(1);
    });
  }

  it('tells a user whose age was only estimated from a face why, and Cancel sends the wallet access_denied', async () => {
    const user = await provenUser('wallet-code-face', 30, 'facial_recognition');
    const context = await newClient(browser);
    const page = await context.newPage();
    await page.goto(authorization().url);
    await signInOnTheScreen(page, user.email);
    await page.getByText(/Wallet credentials need an age proven with an identity document/).waitFor();
    expect(await page.getByRole('button', { name: 'Add to wallet' }).count()).toBe(0);
    await expectAccessible(page, 'wallet consent refused');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.url()).toContain(redirectUri);
    expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
    await context.close();
  });
});
