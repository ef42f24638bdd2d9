import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { UniqueConstraintError } from 'sequelize';
import { createTestApp, type TestApp } from './helpers';
import { createSite, fullFlow, registerPartner, verifiedUser } from './oidc-helpers';

// What no partner may do with sites: reach another's, or keep two live sites of one name on one domain.
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

describe('partners reach only their own sites (IDOR)', () => {
  it('answers 404 for another partner’s site on every site endpoint', async () => {
    const owner = await registerPartner(t);
    const intruder = await registerPartner(t);
    const site = await createSite(t, owner.token);
    const auth = `Bearer ${intruder.token}`;
    await t.request.get(`/api/v1/partners/sites/${site.id}`).set('Authorization', auth).expect(404);
    await t.request
      .put(`/api/v1/partners/sites/${site.id}`)
      .set('Authorization', auth)
      .send({ site_name: 'Hijacked' })
      .expect(404);
    await t.request.delete(`/api/v1/partners/sites/${site.id}`).set('Authorization', auth).expect(404);
    await t.request
      .post(`/api/v1/partners/sites/${site.id}/client-secret`)
      .set('Authorization', auth)
      .send({})
      .expect(404);
    await t.request
      .post(`/api/v1/partners/sites/${site.id}/icon`)
      .set('Authorization', auth)
      .attach('icon', PNG, 'icon.png')
      .expect(404);
    const list = await t.request.get('/api/v1/partners/sites').set('Authorization', auth).expect(200);
    expect(list.body.sites).toEqual([]);
    const untouched = await t.request
      .get(`/api/v1/partners/sites/${site.id}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200);
    expect(untouched.body.site_name).toBe('Acme Shop');
  });

  it('requires a partner session on every partner endpoint', async () => {
    const owner = await registerPartner(t);
    const site = await createSite(t, owner.token);
    for (const [method, path] of [
      ['get', '/api/v1/partners/profile'],
      ['put', '/api/v1/partners/profile'],
      ['get', '/api/v1/partners/sites'],
      ['post', '/api/v1/partners/sites'],
      ['get', `/api/v1/partners/sites/${site.id}`],
      ['put', `/api/v1/partners/sites/${site.id}`],
      ['delete', `/api/v1/partners/sites/${site.id}`],
      ['post', `/api/v1/partners/sites/${site.id}/icon`],
      ['post', '/api/v1/partners/validate-token'],
    ] as const) {
      await t.request[method](path).send({}).expect(401);
    }
  });

  it('validate-token answers for the partner’s own sites only', async () => {
    const owner = await registerPartner(t);
    const other = await registerPartner(t);
    const site = await createSite(t, owner.token);
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const { tokens } = await fullFlow(t, site, user);
    const own = await t.request
      .post('/api/v1/partners/validate-token')
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ token: tokens.access_token })
      .expect(200);
    expect(own.body).toMatchObject({
      active: true,
      client_id: site.client_id,
      site_id: site.id,
      sub: tokens.claims()?.sub,
      token_type: 'Bearer',
    });
    expect(own.body.scope.split(' ')).toContain('AGE_18');
    const foreign = await t.request
      .post('/api/v1/partners/validate-token')
      .set('Authorization', `Bearer ${other.token}`)
      .send({ token: tokens.access_token })
      .expect(200);
    expect(foreign.body).toEqual({ active: false });
    const unknown = await t.request
      .post('/api/v1/partners/validate-token')
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ token: 'nope' })
      .expect(200);
    expect(unknown.body).toEqual({ active: false });
  });

  it('a partner’s site cannot introspect another partner’s tokens at /oauth2/introspect', async () => {
    const owner = await registerPartner(t);
    const other = await registerPartner(t);
    const site = await createSite(t, owner.token);
    const otherSite = await createSite(t, other.token);
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const { tokens } = await fullFlow(t, site, user);
    const response = await fetch(`${t.baseUrl}/oauth2/introspect`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${otherSite.client_id}:${otherSite.client_secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ token: tokens.access_token }),
    });
    expect(await response.json()).toEqual({ active: false });
  });
});

describe('duplicate sites', () => {
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const body = (site_name: string, domain = 'shop.example.com') => ({
    site_name,
    domain,
    redirect_uris: [`https://${domain}/cb`],
    allowed_scopes: ['basic_info', 'AGE_18'],
  });
  const expectDuplicate = (response: { status: number; body: Record<string, unknown> }, name: string) => {
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      code: 'sites.duplicate',
      detail: `You already have an active site named "${name}" on shop.example.com; choose another name`,
      errors: [{ path: 'site_name', message: expect.stringContaining(name) }],
      request_id: expect.any(String),
    });
  };
  const liveNames = async (partnerId: string) =>
    (
      await t.db.models.Site.findAll({
        where: { partner_id: partnerId, deleted_at: null },
      })
    )
      .map((site) => `${site.site_name}@${site.domain}${site.is_active ? '' : ' (paused)'}`)
      .sort();

  it('refuses a second live site with the same name on the same domain, on create, rename, move and reactivation', async () => {
    const partner = await registerPartner(t);
    const other = await registerPartner(t);
    const sites = '/api/v1/partners/sites';
    const first = await t.request.post(sites).set(auth(partner.token)).send(body('Acme Shop')).expect(201);
    // Case and inner white space do not make another site; nothing is stored.
    expectDuplicate(
      await t.request.post(sites).set(auth(partner.token)).send(body('  acme   SHOP ')),
      'acme SHOP',
    );
    expect(await liveNames(partner.partner.id)).toEqual(['Acme Shop@shop.example.com']);
    // Allowed: the same name elsewhere, another name on the same domain, the same site at another partner.
    const abroad = await t.request
      .post(sites)
      .set(auth(partner.token))
      .send(body('Acme Shop', 'shop.example.de'))
      .expect(201);
    const forum = await t.request.post(sites).set(auth(partner.token)).send(body('Acme Forum')).expect(201);
    await t.request.post(sites).set(auth(other.token)).send(body('Acme Shop')).expect(201);
    // Renaming or moving a site onto a live one is refused and changes nothing.
    expectDuplicate(
      await t.request
        .put(`${sites}/${forum.body.id}`)
        .set(auth(partner.token))
        .send({ site_name: 'ACME Shop' }),
      'ACME Shop',
    );
    expectDuplicate(
      await t.request
        .put(`${sites}/${abroad.body.id}`)
        .set(auth(partner.token))
        .send({ domain: 'shop.example.com', redirect_uris: ['https://shop.example.com/cb'] }),
      'Acme Shop',
    );
    // A site may keep its own name (a change of case is a rename of the same site).
    await t.request
      .put(`${sites}/${first.body.id}`)
      .set(auth(partner.token))
      .send({ site_name: 'ACME Shop', description: 'main shop' })
      .expect(200);
    expect(await liveNames(partner.partner.id)).toEqual([
      'ACME Shop@shop.example.com',
      'Acme Forum@shop.example.com',
      'Acme Shop@shop.example.de',
    ]);
    // A paused site does not hold its name; reactivating it while a live site took the name is refused.
    await t.request
      .put(`${sites}/${first.body.id}`)
      .set(auth(partner.token))
      .send({ is_active: false })
      .expect(200);
    const replacement = await t.request
      .post(sites)
      .set(auth(partner.token))
      .send(body('Acme Shop'))
      .expect(201);
    expectDuplicate(
      await t.request.put(`${sites}/${first.body.id}`).set(auth(partner.token)).send({ is_active: true }),
      'ACME Shop',
    );
    // Once the replacement is deleted, the original comes back.
    await t.request.delete(`${sites}/${replacement.body.id}`).set(auth(partner.token)).expect(204);
    await t.request
      .put(`${sites}/${first.body.id}`)
      .set(auth(partner.token))
      .send({ is_active: true })
      .expect(200);
    expect(await liveNames(partner.partner.id)).toEqual([
      'ACME Shop@shop.example.com',
      'Acme Forum@shop.example.com',
      'Acme Shop@shop.example.de',
    ]);
  });

  it('lets only one of several racing requests create or rename into the same site', async () => {
    const partner = await registerPartner(t);
    const sites = '/api/v1/partners/sites';
    const created = await Promise.all(
      Array.from({ length: 6 }, () => t.request.post(sites).set(auth(partner.token)).send(body('Race Shop'))),
    );
    expect(created.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const response of created.filter((r) => r.status === 409)) expectDuplicate(response, 'Race Shop');
    expect(await liveNames(partner.partner.id)).toEqual(['Race Shop@shop.example.com']);

    const a = await t.request.post(sites).set(auth(partner.token)).send(body('Race A')).expect(201);
    const b = await t.request.post(sites).set(auth(partner.token)).send(body('Race B')).expect(201);
    const renamed = await Promise.all(
      [a, b].map((site) =>
        t.request.put(`${sites}/${site.body.id}`).set(auth(partner.token)).send({ site_name: 'Race Final' }),
      ),
    );
    expect(renamed.map((response) => response.status).sort()).toEqual([200, 409]);
    expect((await liveNames(partner.partner.id)).filter((name) => name.startsWith('Race Final'))).toEqual([
      'Race Final@shop.example.com',
    ]);
  });

  it('is enforced by the database itself, whoever writes the row', async () => {
    const partner = await registerPartner(t);
    const row = (site_name: string, extra: Record<string, unknown> = {}) =>
      t.db.models.Site.create({
        partner_id: partner.partner.id,
        client_id: `atc_dup_${randomBytes(9).toString('hex')}`,
        client_type: 'public',
        client_secret_hash: null,
        site_name,
        domain: 'shop.example.com',
        description: null,
        redirect_uris: ['https://shop.example.com/cb'],
        allowed_scopes: ['basic_info'],
        icon_key: null,
        deleted_at: null,
        ...extra,
      } as never);
    await row('Direct');
    await expect(row('DIRECT')).rejects.toBeInstanceOf(UniqueConstraintError);
    // Deleted and paused rows are outside the rule.
    await row('Direct', { deleted_at: t.clock.now(), is_active: false });
    await row('Direct', { is_active: false });
  });

  it('the migration renames live duplicates stored before the rule instead of failing', async () => {
    const { up, down } = await import('../src/db/migrations/20261126130100-sites-unique-live-name');
    const qi = t.db.sequelize.getQueryInterface();
    const context = { name: '20261126130100-sites-unique-live-name', context: qi } as never;
    await down(context);
    try {
      const partner = await registerPartner(t);
      const other = await registerPartner(t);
      const long = 'L'.repeat(120);
      const seeded: Array<[string, string, string]> = [
        [partner.partner.id, 'Old Shop', 'shop.example.com'],
        [partner.partner.id, 'old shop', 'shop.example.com'],
        [partner.partner.id, 'Old Shop (2)', 'shop.example.com'],
        [partner.partner.id, 'OLD SHOP', 'shop.example.com'],
        [partner.partner.id, 'Old Shop', 'shop.example.de'],
        [partner.partner.id, long, 'shop.example.com'],
        [partner.partner.id, long, 'shop.example.com'],
        [other.partner.id, 'Old Shop', 'shop.example.com'],
      ];
      const start = t.clock.now().getTime();
      const ids: string[] = [];
      for (const [index, [partnerId, siteName, domain]] of seeded.entries()) {
        const at = new Date(start + index * 1000);
        const site = await t.db.models.Site.create({
          partner_id: partnerId,
          client_id: `atc_mig_${randomBytes(9).toString('hex')}`,
          client_type: 'public',
          client_secret_hash: null,
          site_name: siteName,
          domain,
          description: null,
          redirect_uris: [`https://${domain}/cb`],
          allowed_scopes: ['basic_info'],
          icon_key: null,
          deleted_at: null,
          created_at: at,
          updated_at: at,
        } as never);
        ids.push(site.id);
      }
      await up(context);
      const names = await t.db.models.Site.findAll({ where: { id: ids }, attributes: ['id', 'site_name'] });
      const byId = new Map(names.map((site) => [site.id, site.site_name]));
      expect(ids.map((id) => byId.get(id))).toEqual([
        'Old Shop',
        'old shop (3)',
        'Old Shop (2)',
        'OLD SHOP (4)',
        'Old Shop',
        long,
        `${'L'.repeat(116)} (2)`,
        'Old Shop',
      ]);
    } finally {
      // The index is back (also when an expectation above failed), and it holds.
      await up(context).catch(() => undefined);
      const partner = await registerPartner(t);
      await t.request.post('/api/v1/partners/sites').set(auth(partner.token)).send(body('Again')).expect(201);
      await t.request.post('/api/v1/partners/sites').set(auth(partner.token)).send(body('again')).expect(409);
    }
  });
});
