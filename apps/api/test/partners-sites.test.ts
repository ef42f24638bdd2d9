import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import sharp from 'sharp';
import { createTestApp, type TestApp } from './helpers';
import { createSite, fullFlow, registerPartner, verifiedUser } from './oidc-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

/** A real (decodable) 1×1 PNG: icons are decoded and re-encoded, so a header alone is not enough. */
const PNG = await sharp({
  create: { width: 1, height: 1, channels: 4, background: { r: 67, g: 56, b: 202, alpha: 1 } },
})
  .png()
  .toBuffer();

describe('partner accounts', () => {
  it('registers with the spec payload and signs in with a partner session', async () => {
    await t.request
      .post('/api/v1/partners/register')
      .send({
        email: 'Owner@Example.com',
        password: 'partner password 1',
        company_name: 'Acme Games Ltd',
        contact_name: 'Ada',
        phone: '+44 20 7946 0000',
        website: 'https://acme.example.com',
        business_type: 'Gaming',
      })
      .expect(201);
    const login = await t.request
      .post('/api/v1/partners/login')
      .send({ email: 'owner@example.com', password: 'partner password 1' })
      .expect(200);
    expect(login.body.access_token).toMatch(/^atp_/);
    expect(login.body.partner).toMatchObject({
      email: 'owner@example.com',
      company_name: 'Acme Games Ltd',
      partner_name: 'Acme Games Ltd',
      business_type: 'Gaming',
      // New partners start on Free (issue 25 item 8).
      plan: 'free',
      // The default: pending until the partner opens the mailed link (ATTESTLY_PARTNER_INITIAL_STATUS).
      status: 'pending_verification',
    });
    const profile = await t.request
      .get('/api/v1/partners/profile')
      .set('Authorization', `Bearer ${login.body.access_token}`)
      .expect(200);
    expect(profile.body.contact_name).toBe('Ada');
    const updated = await t.request
      .put('/api/v1/partners/profile')
      .set('Authorization', `Bearer ${login.body.access_token}`)
      .send({
        company_name: 'Acme Games',
        website: 'https://games.example.com',
        business_type: 'Entertainment',
      })
      .expect(200);
    expect(updated.body).toMatchObject({
      company_name: 'Acme Games',
      website: 'https://games.example.com',
      business_type: 'Entertainment',
    });
  });

  it('takes a website typed without https:// as https, and still refuses other schemes', async () => {
    await t.request
      .post('/api/v1/partners/register')
      .send({
        email: 'bare-website@example.com',
        password: 'partner password 1',
        company_name: 'Bare Website Ltd',
        website: 'shop.example.com',
      })
      .expect(201);
    const login = await t.request
      .post('/api/v1/partners/login')
      .send({ email: 'bare-website@example.com', password: 'partner password 1' })
      .expect(200);
    expect(login.body.partner.website).toBe('https://shop.example.com');
    const bearer = { Authorization: `Bearer ${login.body.access_token}` };
    const updated = await t.request
      .put('/api/v1/partners/profile')
      .set(bearer)
      .send({ company_name: 'Bare Website Ltd', website: 'www.example.org/shop' })
      .expect(200);
    expect(updated.body.website).toBe('https://www.example.org/shop');
    const refused = await t.request
      .put('/api/v1/partners/profile')
      .set(bearer)
      .send({ company_name: 'Bare Website Ltd', website: 'javascript:alert(1)' })
      .expect(422);
    expect(refused.body.errors).toEqual([
      { path: 'website', message: 'Enter a website address such as shop.example.com' },
    ]);
  });

  it('validates registration: required fields and known business types', async () => {
    const missing = await t.request
      .post('/api/v1/partners/register')
      .send({ email: 'a@example.com', password: 'long enough pw' })
      .expect(422);
    expect(missing.body.detail).toBe('Company name is required');
    const badType = await t.request
      .post('/api/v1/partners/register')
      .send({
        email: 'b@example.com',
        password: 'long enough pw',
        company_name: 'B',
        business_type: 'Casino',
      })
      .expect(422);
    expect(badType.body.detail).toBe('Choose one of the listed business types');
  });

  it('does not reveal whether an address is registered and rejects wrong passwords', async () => {
    const partner = await registerPartner(t);
    await t.request
      .post('/api/v1/partners/register')
      .send({ email: partner.email, password: 'another password', company_name: 'Copycat' })
      .expect(201);
    const wrong = await t.request
      .post('/api/v1/partners/login')
      .send({ email: partner.email, password: 'another password' })
      .expect(401);
    expect(wrong.body.detail).toBe('Invalid email or password');
  });

  it('keeps user and partner sessions apart', async () => {
    const partner = await registerPartner(t);
    const user = await verifiedUser(t);
    await t.request.get('/api/v1/partners/profile').set('Authorization', `Bearer ${user.token}`).expect(401);
    await t.request.get('/api/v1/users/profile').set('Authorization', `Bearer ${partner.token}`).expect(401);
  });
});

describe('sites', () => {
  it('creates a site as an OIDC client with a secret shown once and stored only as a keyed hash', async () => {
    const partner = await registerPartner(t);
    const response = await t.request
      .post('/api/v1/partners/sites')
      .set('Authorization', `Bearer ${partner.token}`)
      .send({
        site_name: 'Shop',
        domain: 'https://Shop.Example.com/',
        redirect_uris: ['https://shop.example.com/cb'],
        description: 'Our shop',
      })
      .expect(201);
    expect(response.body).toMatchObject({
      site_name: 'Shop',
      domain: 'shop.example.com',
      allowed_scopes: ['basic_info', 'AGE_18'],
      client_type: 'confidential',
      is_active: true,
      description: 'Our shop',
    });
    const secret = response.body.client_secret as string;
    expect(secret).toMatch(/^atcs_/);
    const row = await t.db.models.Site.findByPk(response.body.id);
    expect(row?.client_secret_hash).toMatch(/^[0-9a-f]{64}$/);
    const dump = JSON.stringify((await t.db.sequelize.query('SELECT * FROM sites'))[0]);
    expect(dump).not.toContain(secret);
    const fetched = await t.request
      .get(`/api/v1/partners/sites/${response.body.id}`)
      .set('Authorization', `Bearer ${partner.token}`)
      .expect(200);
    expect(fetched.body.client_secret).toBeUndefined();
    const audit = await t.db.models.AuditLog.findOne({
      where: { event_type: 'partner.site_created', partner_id: partner.partner.id },
    });
    expect(audit).not.toBeNull();
  });

  it('always includes basic_info and refuses unknown scopes', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token, { allowed_scopes: ['AGE_21'] });
    expect(site.allowed_scopes).toEqual(['basic_info', 'AGE_21']);
    const bad = await t.request
      .post('/api/v1/partners/sites')
      .set('Authorization', `Bearer ${partner.token}`)
      .send({
        site_name: 'X',
        domain: 'x.example.com',
        redirect_uris: ['https://x.example.com/cb'],
        allowed_scopes: ['admin'],
      })
      .expect(422);
    expect(bad.body.detail).toBe('Unknown scope');
  });

  it.each([
    ['http://shop.example.com/cb', 'Redirect URIs must use https (http is allowed only for localhost)'],
    ['not a url', 'Each redirect URI must be a valid URL'],
    ['https://shop.example.com/cb#frag', 'Redirect URIs must not contain a fragment (#)'],
    ['javascript:alert(1)', 'Redirect URIs must use https'],
  ])('refuses the redirect URI %s', async (uri, message) => {
    const partner = await registerPartner(t);
    const response = await t.request
      .post('/api/v1/partners/sites')
      .set('Authorization', `Bearer ${partner.token}`)
      .send({ site_name: 'X', domain: 'x.example.com', redirect_uris: [uri] })
      .expect(422);
    expect(response.body.detail).toBe(message);
  });

  it('accepts http redirect URIs on localhost and requires at least one', async () => {
    const partner = await registerPartner(t);
    await createSite(t, partner.token, {
      redirect_uris: ['http://localhost:3000/cb', 'http://127.0.0.1:8080/cb'],
    });
    const none = await t.request
      .post('/api/v1/partners/sites')
      .set('Authorization', `Bearer ${partner.token}`)
      .send({ site_name: 'X', domain: 'x.example.com', redirect_uris: [] })
      .expect(422);
    expect(none.body.detail).toBe('At least one redirect URI is required');
  });

  it('lists, updates, rotates the secret of and deletes own sites', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const auth = `Bearer ${partner.token}`;
    const list = await t.request.get('/api/v1/partners/sites').set('Authorization', auth).expect(200);
    expect(list.body.total_count).toBe(1);
    expect(list.body.sites[0].id).toBe(site.id);
    const updated = await t.request
      .put(`/api/v1/partners/sites/${site.id}`)
      .set('Authorization', auth)
      .send({ site_name: 'Renamed', allowed_scopes: ['AGE_16'] })
      .expect(200);
    expect(updated.body).toMatchObject({ site_name: 'Renamed', allowed_scopes: ['basic_info', 'AGE_16'] });
    const rotated = await t.request
      .post(`/api/v1/partners/sites/${site.id}/client-secret`)
      .set('Authorization', auth)
      .send({})
      .expect(200);
    expect(rotated.body.client_secret).toMatch(/^atcs_/);
    expect(rotated.body.client_secret).not.toBe(site.client_secret);
    await t.request.delete(`/api/v1/partners/sites/${site.id}`).set('Authorization', auth).expect(204);
    await t.request.get(`/api/v1/partners/sites/${site.id}`).set('Authorization', auth).expect(404);
    expect(
      (await t.request.get('/api/v1/partners/sites').set('Authorization', auth).expect(200)).body.total_count,
    ).toBe(0);
  });

  it('stores an icon (sniffed, not SVG) and serves it at a public URL', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const auth = `Bearer ${partner.token}`;
    const uploaded = await t.request
      .post(`/api/v1/partners/sites/${site.id}/icon`)
      .set('Authorization', auth)
      .attach('icon', PNG, 'icon.png')
      .expect(200);
    expect(uploaded.body.icon_url).toMatch(/^\/api\/v1\/media\/site-icons\/[A-Za-z0-9_-]{32}$/);
    const icon = await t.request.get(uploaded.body.icon_url).expect(200);
    // Decoded and drawn again: what is served is the appliance's own WebP, never the uploaded bytes.
    expect(icon.headers['content-type']).toBe('image/webp');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await t.request
      .post(`/api/v1/partners/sites/${site.id}/icon`)
      .set('Authorization', auth)
      .attach('icon', svg, 'icon.png')
      .expect(415);
  });

  it('re-encodes icons with bounded dimensions and no EXIF; refuses a non-image behind an image header', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const auth = `Bearer ${partner.token}`;
    const photo = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#4338ca' } })
      .jpeg()
      .withExif({ IFD0: { Artist: 'secret-artist', Copyright: 'gps here' } })
      .toBuffer();
    expect(photo.includes(Buffer.from('secret-artist'))).toBe(true);
    const uploaded = await t.request
      .post(`/api/v1/partners/sites/${site.id}/icon`)
      .set('Authorization', auth)
      .attach('icon', photo, 'photo.jpg')
      .expect(200);
    const served = await t.request.get(uploaded.body.icon_url).buffer(true).expect(200);
    const body = served.body as Buffer;
    const meta = await sharp(body).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 128 });
    expect(meta.exif).toBeUndefined();
    expect(body.includes(Buffer.from('secret-artist'))).toBe(false);
    // PNG magic bytes followed by garbage: sniffed as PNG, refused when decoded; the stored icon is unchanged.
    const fake = Buffer.concat([PNG.subarray(0, 16), Buffer.from('not really a picture at all')]);
    const refused = await t.request
      .post(`/api/v1/partners/sites/${site.id}/icon`)
      .set('Authorization', auth)
      .attach('icon', fake, 'icon.png')
      .expect(422);
    expect(refused.body.detail).toBe('Site icon must be a PNG, JPG, GIF or WebP image');
    const after = await t.request
      .get(`/api/v1/partners/sites/${site.id}`)
      .set('Authorization', auth)
      .expect(200);
    expect(after.body.icon_url).toBe(uploaded.body.icon_url);
  });

  it('deleting a site revokes every grant users gave it and queues token.revoked events', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const { config, tokens } = await fullFlow(t, site, user);
    await t.request
      .delete(`/api/v1/partners/sites/${site.id}`)
      .set('Authorization', `Bearer ${partner.token}`)
      .expect(204);
    const row = await t.db.models.OAuthAuthorization.findOne({ where: { site_id: site.id } });
    expect(row?.revoked_reason).toBe('site_deleted');
    const payloads = await t.db.models.OidcPayload.count({ where: { grant_id: row?.id as string } });
    expect(payloads).toBe(0);
    const events = await t.db.models.EventOutbox.findAll({
      where: { partner_id: partner.partner.id, event: 'token.revoked' },
    });
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]?.payload ?? '{}')).toMatchObject({
      event: 'token.revoked',
      data: { site_id: site.id, reason: 'site_deleted', user_id: tokens.claims()?.sub },
    });
    await expect(
      client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck),
    ).rejects.toBeTruthy();
    const audit = await t.db.models.AuditLog.findOne({
      where: { event_type: 'partner.site_deleted', partner_id: partner.partner.id },
    });
    expect(audit).not.toBeNull();
  });
});
