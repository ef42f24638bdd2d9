import { createHash, randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  expectAccessible,
  horizontalOverflow,
  launchBrowser,
  linkIn,
  newClient,
  screenshot,
  uniqueEmail,
  waitForMail,
} from './support';

/**
 * Sandbox sites on the sign-in and consent screens (issue 21 item 14): a partner's test site is marked "test site
 * — do not enter real data" before anyone types a password or shares a proof; a live site is not. At 1280 and
 * 360 px, with screenshots.
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

interface Site {
  client_id: string;
  redirect_uris: string[];
}

let browser: Browser;
let sandboxSite: Site;
let liveSite: Site;

beforeAll(async () => {
  browser = await launchBrowser();
  const partner = { email: uniqueEmail('sandbox-partner'), password: 'partner password 1' };
  expect(
    (await api('/partners/register', { ...partner, company_name: 'Acme Labs', business_type: 'Gaming' }))
      .status,
  ).toBe(201);
  const link = linkIn(
    await waitForMail(partner.email, /Confirm your e-mail address/),
    '/partner/verify-email',
  );
  const token = new URL(link, baseUrl()).searchParams.get('token') ?? '';
  expect((await api('/partners/verify-email', { token })).status).toBe(200);
  const login = await api('/partners/login', partner);
  const bearer = String(login.body.access_token);
  const create = async (body: Record<string, unknown>) => {
    const created = await api(
      '/partners/sites',
      { allowed_scopes: ['basic_info', 'AGE_18'], ...body },
      bearer,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as unknown as Site;
  };
  sandboxSite = await create({
    site_name: 'Acme Test Shop',
    domain: 'test.acme.example',
    redirect_uris: ['https://test.acme.example/callback'],
    sandbox: true,
  });
  liveSite = await create({
    site_name: 'Acme Shop',
    domain: 'shop.acme.example',
    redirect_uris: ['https://shop.acme.example/callback'],
  });
});

afterAll(async () => {
  await browser?.close();
});

/** Opens the site's authorization request in the page, as the partner's "Sign in with Attestly" link would. */
async function startSignIn(page: Page, site: Site) {
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const url = new URL(`${baseUrl()}/oauth2/authorize`);
  url.search = new URLSearchParams({
    client_id: site.client_id,
    redirect_uri: site.redirect_uris[0] as string,
    response_type: 'code',
    scope: 'openid basic_info AGE_18',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
  }).toString();
  await page.goto(url.href);
  await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
}

describe('the test-site warning on sign-in and consent', () => {
  for (const mobile of [false, true]) {
    const size = mobile ? '360' : '1280';
    it(`marks a sandbox site on both screens at ${size} px`, async () => {
      const context = await newClient(browser, { mobile });
      const page = await context.newPage();
      const user = { full_name: 'Ada Tester', email: uniqueEmail('sandbox-user'), password: PASSWORD };
      const registered = await context.request.post('/api/v1/users/register', { data: user });
      expect(registered.status()).toBe(201);

      await startSignIn(page, sandboxSite);
      const warning = page.getByRole('note');
      await warning.waitFor();
      expect(await warning.innerText()).toMatch(/Test site — do not enter real data/i);
      // Above the form: seen before the e-mail field, on a phone without scrolling.
      const [warningBox, emailBox] = await Promise.all([
        warning.boundingBox(),
        page.getByLabel('Email').boundingBox(),
      ]);
      expect((warningBox?.y ?? Infinity) < (emailBox?.y ?? 0)).toBe(true);
      expect((warningBox?.y ?? Infinity) + (warningBox?.height ?? 0)).toBeLessThan(mobile ? 740 : 900);
      if (mobile) expect(await horizontalOverflow(page)).toBe(0);
      await expectAccessible(page, `sandbox sign-in ${size}`);
      await screenshot(page, `sandbox-01-login-${size}`);

      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Acme Test Shop asks for:').waitFor();
      expect(await page.getByRole('note').innerText()).toMatch(/Test site — do not enter real data/i);
      if (mobile) expect(await horizontalOverflow(page)).toBe(0);
      await expectAccessible(page, `sandbox consent ${size}`);
      await screenshot(page, `sandbox-02-consent-${size}`);
      await context.close();
    });
  }

  it('shows no warning for a live site', async () => {
    const context = await newClient(browser);
    const page = await context.newPage();
    await startSignIn(page, liveSite);
    await page.getByText('Acme Shop').first().waitFor();
    expect(await page.getByText(/Test site/i).count()).toBe(0);
    await screenshot(page, 'sandbox-03-live-login-1280');
    await context.close();
  });
});
