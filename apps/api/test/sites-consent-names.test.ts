import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from './admin-helpers';
import { createTestApp, type TestApp } from './helpers';
import { Browser, createSite, pkce, registerPartner, uidFrom } from './oidc-helpers';

/**
 * Consent screens name only what a partner can own (issue 21 item 14): a site's domain is refused when it is a
 * public suffix (its redirect URIs could then lie on any unrelated site under it), on partner and back-office
 * creation and on update; and sign-in and consent say when the asking site is a partner's sandbox.
 */
let t: TestApp;
let partner: Awaited<ReturnType<typeof registerPartner>>;
let admin: Awaited<ReturnType<typeof createAdmin>>;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  partner = await registerPartner(t);
  admin = await createAdmin(t);
});
afterAll(async () => {
  await t?.close();
});

const siteBody = (domain: string, redirect = `https://${domain}/callback`) => ({
  site_name: `Site on ${domain}`,
  domain,
  redirect_uris: [redirect],
  allowed_scopes: ['basic_info', 'AGE_18'],
});
const asPartner = (request: ReturnType<typeof t.request.post>) =>
  request.set('Authorization', `Bearer ${partner.token}`);

function expectPublicSuffix(response: { status: number; body: Record<string, unknown> }, host: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect(response.body).toMatchObject({
    code: 'sites.public_suffix',
    detail: expect.stringContaining(`${host} is a public suffix`),
    errors: [{ path: 'domain', message: expect.stringContaining(host) }],
    request_id: expect.any(String),
  });
}

describe('site domains that are public suffixes', () => {
  it('refuses a partner site on an ICANN or a private public suffix, and stores nothing', async () => {
    for (const domain of ['co.uk', 'github.io', 'CO.UK', 'kawasaki.jp']) {
      const host = domain.toLowerCase();
      // A redirect URI on a subdomain: on the suffix itself a real site could not exist anyway.
      const response = await asPartner(t.request.post('/api/v1/partners/sites')).send(
        siteBody(domain, `https://anyone.${host}/callback`),
      );
      expectPublicSuffix(response, host);
    }
    const single = await asPartner(t.request.post('/api/v1/partners/sites')).send(
      siteBody('intranet', 'https://app.intranet/callback'),
    );
    expect(single.status).toBe(422);
    expect(single.body).toMatchObject({ code: 'sites.public_suffix', errors: [{ path: 'domain' }] });
    expect(await t.db.models.Site.count({ where: { partner_id: partner.partner.id } })).toBe(0);
  });

  it('accepts a registrable domain under those suffixes, an IP address and a loopback sandbox', async () => {
    for (const domain of ['shop.co.uk', 'alice.github.io', 'city.kawasaki.jp', '203.0.113.7']) {
      const created = await asPartner(t.request.post('/api/v1/partners/sites')).send(siteBody(domain));
      expect(created.status, `${domain}: ${JSON.stringify(created.body)}`).toBe(201);
    }
    const sandbox = await asPartner(t.request.post('/api/v1/partners/sites'))
      .send(siteBody('localhost:3000', 'http://localhost:3000/callback'))
      .expect(201);
    expect(sandbox.body.sandbox).toBe(true);
  });

  it('refuses moving a site onto a public suffix, and keeps its domain', async () => {
    const site = await createSite(t, partner.token, {
      domain: 'books.example.org',
      redirect_uris: ['https://books.example.org/cb'],
    });
    const response = await t.request
      .put(`/api/v1/partners/sites/${site.id}`)
      .set('Authorization', `Bearer ${partner.token}`)
      .send({ domain: 'github.io', redirect_uris: ['https://books.github.io/cb'] });
    expectPublicSuffix(response, 'github.io');
    const stored = await t.db.models.Site.findByPk(site.id);
    expect(stored?.domain).toBe('books.example.org');
    await t.request
      .put(`/api/v1/partners/sites/${site.id}`)
      .set('Authorization', `Bearer ${partner.token}`)
      .send({ domain: 'books.github.io', redirect_uris: ['https://books.github.io/cb'] })
      .expect(200);
  });

  it('refuses the same in the back office', async () => {
    const response = await t.request
      .post(`/api/v1/admin/partners/${partner.partner.id}/sites`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({
        ...siteBody('github.io', 'https://acme.github.io/callback'),
        redirect_uris: 'https://acme.github.io/callback',
      });
    expectPublicSuffix(response, 'github.io');
    await t.request
      .post(`/api/v1/admin/partners/${partner.partner.id}/sites`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send(siteBody('acme.github.io'))
      .expect(201);
  });
});

describe('sandbox sites on the sign-in and consent screens', () => {
  async function detailsFor(site: { client_id: string; redirect_uris: string[] }) {
    const url = new URL(`${t.baseUrl}/oauth2/authorize`);
    url.search = new URLSearchParams({
      client_id: site.client_id,
      redirect_uri: site.redirect_uris[0] as string,
      response_type: 'code',
      scope: 'openid basic_info',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    }).toString();
    const browser = new Browser();
    const start = await browser.fetch(url.href);
    const uid = uidFrom(new URL(start.headers.get('location') as string, t.baseUrl).href);
    const details = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}`, 'GET');
    expect(details.status).toBe(200);
    return details.body.site as { sandbox: boolean; domain: string };
  }

  it('tells the screens which sites are sandboxes', async () => {
    const live = await createSite(t, partner.token, { site_name: 'Live shop' });
    const sandbox = await t.request
      .post('/api/v1/partners/sites')
      .set('Authorization', `Bearer ${partner.token}`)
      .send({ ...siteBody('test.example.com'), site_name: 'Test shop', sandbox: true })
      .expect(201);
    expect(await detailsFor(live)).toMatchObject({ sandbox: false });
    expect(await detailsFor(sandbox.body as { client_id: string; redirect_uris: string[] })).toMatchObject({
      sandbox: true,
      domain: 'test.example.com',
    });
  });
});
