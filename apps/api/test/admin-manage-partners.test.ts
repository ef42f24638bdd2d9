import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, adminEvents, createAdmin } from './admin-helpers';
import { createTestApp, randomClientIp, signUp, type TestApp } from './helpers';
import { createSite, registerPartner } from './oidc-helpers';

// The back office's partners, tokens and OAuth authorizations; users, system and audit are in admin-manage.test.ts.
let t: TestApp;
let admin: Awaited<ReturnType<typeof createAdmin>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t);
});
afterAll(async () => {
  await t.close();
});

const as = adminApi(
  () => t,
  () => admin.token,
);

describe('partners', () => {
  it("reads a partner's verification settings from what its sites ask, not a fixed answer", async () => {
    const partner = await registerPartner(t);
    const settings = async () =>
      (await as(`/partners/${partner.partner.id}`).get().expect(200)).body.verification_settings;
    expect(await settings()).toEqual({
      require_age_verification: false,
      require_location_verification: false,
      default_age_threshold: null,
      allowed_verification_methods: [],
    });
    await createSite(t, partner.token, { allowed_scopes: ['basic_info', 'AGE_21', 'location_verification'] });
    expect(await settings()).toEqual({
      require_age_verification: true,
      require_location_verification: true,
      default_age_threshold: 21,
      // No Stripe here: no card check.
      allowed_verification_methods: ['document', 'facial_recognition', 'ip_geolocation'],
    });
    await createSite(t, partner.token, {
      site_name: 'Younger audience',
      redirect_uris: ['https://shop.example.com/young'],
      allowed_scopes: ['basic_info', 'AGE_16'],
    });
    expect((await settings()).default_age_threshold).toBe(16);
  });

  it('lets a partner made in the back office sign in: a password shown once, or an invitation mail', async () => {
    const shownEmail = `shown-${randomBytes(3).toString('hex')}@example.com`;
    const shown = await as('/partners')
      .post({
        partner_name: 'Shown Password Ltd',
        contact_email: shownEmail,
        contact_name: 'Sam Shown',
        website: 'https://shown.example',
        skip_email_verification: true,
        sign_in: 'show_password',
      })
      .expect(201);
    expect(shown.body.invitation_sent_to).toBeUndefined();
    await t.request
      .post('/api/v1/partners/login')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email: shownEmail, password: shown.body.temporary_password })
      .expect(200);
    // The password is in that one answer only.
    expect((await as(`/partners/${shown.body.id}`).get()).body.temporary_password).toBeUndefined();

    const invitedEmail = `invited-${randomBytes(3).toString('hex')}@example.com`;
    const invited = await as('/partners')
      .post({
        partner_name: 'Invited Ltd',
        contact_email: invitedEmail,
        contact_name: 'Ivy Invited',
        website: 'https://invited.example',
        skip_email_verification: true,
        sign_in: 'send_invitation',
      })
      .expect(201);
    expect(invited.body).toMatchObject({ invitation_sent_to: invitedEmail, status: 'active' });
    expect(invited.body.temporary_password).toBeUndefined();
    const mail = await t.smtp.waitFor(invitedEmail, /invited to your Attestly partner account/);
    expect(mail.text).toContain('within 7 days');
    const token = /\/partner\/reset-password\?token=([^\s]+)/.exec(mail.text)?.[1];
    expect(token, 'invitation link').toBeDefined();
    // The link lasts 7 days (not a reset link's hour); the partner chooses a password and signs in with it.
    const link = await t.db.models.OneTimeToken.findOne({
      where: { subject_id: invited.body.id as string, purpose: 'partner_password_reset' },
    });
    expect(link?.expires_at.getTime()).toBe(t.clock.now().getTime() + 7 * 86_400_000);
    await t.request
      .post('/api/v1/partners/reset-password')
      .set('X-Forwarded-For', randomClientIp())
      .send({ token: decodeURIComponent(token as string), new_password: 'chosen by the partner 1' })
      .expect(200);
    await t.request
      .post('/api/v1/partners/login')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email: invitedEmail, password: 'chosen by the partner 1' })
      .expect(200);
    const row = await t.db.models.Partner.findByPk(invited.body.id as string);
    expect(row?.email_verified_at).not.toBeNull();
    const bad = await as('/partners')
      .post({
        partner_name: 'Bad Choice',
        contact_email: `bad-${randomBytes(3).toString('hex')}@example.com`,
        contact_name: 'B',
        website: 'https://bad.example',
        sign_in: 'carrier_pigeon',
      })
      .expect(422);
    expect(bad.body.detail).toBe('sign_in must be show_password or send_invitation');
  });

  it('deletes a partner nobody has used, with its sites and keys, and refuses one that has been used', async () => {
    const unused = await registerPartner(t);
    const site = await createSite(t, unused.token);
    await t.request
      .post('/api/v1/partners/api-keys')
      .set('Authorization', `Bearer ${unused.token}`)
      .send({ environment: 'live' })
      .expect(201);
    await as(`/partners/${unused.partner.id}`).delete().expect(204);
    expect(await t.db.models.Partner.count({ where: { id: unused.partner.id } })).toBe(0);
    expect(await t.db.models.Site.count({ where: { id: site.id } })).toBe(0);
    expect(await t.db.models.ApiKey.count({ where: { partner_id: unused.partner.id } })).toBe(0);
    // Its portal session ended with it.
    await t.request
      .get('/api/v1/partners/profile')
      .set('Authorization', `Bearer ${unused.token}`)
      .expect(401);
    expect((await as(`/partners/${unused.partner.id}`).delete()).status).toBe(404);
    const entry = await t.db.models.AuditLog.findOne({
      where: { event_type: 'partner_deleted', partner_id: unused.partner.id },
    });
    expect(entry?.admin_user_id).toBe(admin.id);

    const used = await registerPartner(t);
    const usedSite = await createSite(t, used.token);
    const someone = await signUp(t);
    await t.services.grants.recordConsent({
      grantId: `grant-${randomBytes(8).toString('hex')}`,
      userId: someone.user.id,
      partnerId: used.partner.id,
      siteId: usedSite.id,
      clientId: usedSite.client_id,
      scopes: ['basic_info'],
      expiresAt: new Date(t.clock.now().getTime() + 86400_000),
      jurisdiction: null,
    });
    const refused = await as(`/partners/${used.partner.id}`).delete().expect(409);
    expect(refused.body).toMatchObject({
      code: 'partners.in_use',
      detail: expect.stringContaining('deactivate'),
    });
    expect(await t.db.models.Partner.count({ where: { id: used.partner.id } })).toBe(1);
  });

  it('creates, lists, edits, approves, suspends and deactivates for real', async () => {
    const email = `acme-${randomBytes(3).toString('hex')}@example.com`;
    const created = await as('/partners')
      .post({
        partner_name: 'Acme Admin Created',
        contact_email: email,
        contact_name: 'Wile E.',
        website: 'https://acme.example',
      })
      .expect(201);
    expect(created.body).toMatchObject({
      status: 'pending_verification',
      plan: 'starter',
      contact_email: email,
    });
    expect(created.body.temporary_password).toEqual(expect.any(String));
    await t.smtp.waitFor(email, /partner account/);
    const id = created.body.id as string;
    expect(
      (await as('/partners?status=pending_verification&search=admin created').get()).body.total_count,
    ).toBe(1);
    // Approve is real: the partner can sign in afterwards.
    await as(`/partners/${id}/approve`).post({}).expect(200);
    expect((await as(`/partners/${id}/approve`).post({})).status).toBe(409);
    const login = await t.request
      .post('/api/v1/partners/login')
      .set('X-Forwarded-For', randomClientIp())
      .send({ email, password: created.body.temporary_password })
      .expect(200);
    const updated = await as(`/partners/${id}`)
      .put({ plan: 'growth', contact_name: 'Road Runner' })
      .expect(200);
    expect(updated.body).toMatchObject({ plan: 'growth', contact_name: 'Road Runner' });
    // Suspend ends the partner's session.
    await as(`/partners/${id}/suspend`).post({ reason: 'Unpaid' }).expect(200);
    expect(
      (
        await t.request
          .get('/api/v1/partners/profile')
          .set('Authorization', `Bearer ${login.body.access_token}`)
      ).status,
    ).toBe(401);
    await as(`/partners/${id}/approve`).post({}).expect(200);
    const deactivated = await as(`/partners/${id}/deactivate`)
      .post({ reason: 'Terms breach', notify_partner: true })
      .expect(200);
    expect(deactivated.body.status).toBe('suspended');
    const mail = await t.smtp.waitFor(email, /was deactivated/);
    expect(mail.text).toContain('Terms breach');
    expect((await as(`/partners/${id}/deactivate`).post({})).status).toBe(409);
    expect(await adminEvents(t, admin.id)).toEqual(
      expect.arrayContaining([
        'partner_created',
        'partner_approved',
        'partner_updated',
        'partner_suspended',
        'partner_deactivated',
      ]),
    );
  });

  it('shows real statistics, sites, and regenerates the API key (shown once)', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const user = await signUp(t);
    await t.services.grants.recordConsent({
      grantId: `grant-${randomBytes(8).toString('hex')}`,
      userId: user.user.id,
      partnerId: partner.partner.id,
      siteId: site.id,
      clientId: site.client_id,
      scopes: ['basic_info', 'AGE_18'],
      expiresAt: new Date(t.clock.now().getTime() + 86400_000),
      jurisdiction: null,
    });
    const detail = await as(`/partners/${partner.partner.id}`).get().expect(200);
    expect(detail.body.statistics).toMatchObject({
      total_sites: 1,
      active_oauth_auths: 1,
      pending_verifications: 0,
    });
    expect(detail.body.sites[0]).toMatchObject({ id: site.id, oauth_authorizations: 1 });
    const created = await as(`/partners/${partner.partner.id}/sites`)
      .post({
        site_name: 'Admin Site',
        domain: 'admin.example.com',
        redirect_uris: 'https://admin.example.com/cb\nhttps://admin.example.com/cb2',
      })
      .expect(201);
    expect(created.body).toMatchObject({
      redirect_uris: ['https://admin.example.com/cb', 'https://admin.example.com/cb2'],
      allowed_scopes: ['basic_info', 'AGE_18'],
    });
    expect((await as(`/partners/${partner.partner.id}/sites`).get()).body.sites).toHaveLength(2);
    const first = await as(`/partners/${partner.partner.id}/regenerate-api-key`).post().expect(200);
    expect(first.body.api_key).toMatch(/^atk_live_/);
    const second = await as(`/partners/${partner.partner.id}/regenerate-api-key`).post().expect(200);
    expect(second.body.api_key).not.toBe(first.body.api_key);
    expect(await t.services.apiKeys.authenticate(first.body.api_key)).toBeNull();
    expect(await t.services.apiKeys.authenticate(second.body.api_key)).toMatchObject({
      partnerId: partner.partner.id,
    });
    expect((await as(`/partners/${partner.partner.id}`).get()).body.api_key).toMatch(/^atk_live_.+…$/);
    expect(await adminEvents(t, admin.id)).toEqual(
      expect.arrayContaining(['site_created', 'api_key_regenerated']),
    );
  });
});

describe('tokens and OAuth authorizations', () => {
  it('lists authorizations by user, partner and state, and revokes with "Revoked by admin"', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const user = await signUp(t);
    const grantId = `grant-${randomBytes(8).toString('hex')}`;
    await t.services.grants.recordConsent({
      grantId,
      userId: user.user.id,
      partnerId: partner.partner.id,
      siteId: site.id,
      clientId: site.client_id,
      scopes: ['basic_info', 'AGE_18'],
      expiresAt: new Date(t.clock.now().getTime() + 86400_000),
      jurisdiction: null,
    });
    const active = await as(`/oauth-authorizations?user_id=${user.user.id}&active_only=true`)
      .get()
      .expect(200);
    expect(active.body).toMatchObject({
      total_count: 1,
      authorizations: [
        expect.objectContaining({
          id: grantId,
          partner_name: 'Acme Games',
          site_name: 'Acme Shop',
          is_active: true,
        }),
      ],
    });
    const revoked = await as(`/oauth-authorizations/${grantId}/revoke`)
      .post({ notify_user: true })
      .expect(200);
    expect(revoked.body).toMatchObject({ is_active: false, revoked_reason: 'admin_revoked' });
    await t.smtp.waitFor(user.email, /revoked/);
    expect((await as(`/oauth-authorizations/${grantId}/revoke`).post({})).status).toBe(409);
    expect(
      (await as(`/oauth-authorizations?partner_id=${partner.partner.id}&active_only=false`).get()).body
        .total_count,
    ).toBe(1);
    const entry = await t.db.models.AuditLog.findOne({
      where: { event_type: 'token_revoked', admin_user_id: admin.id },
      order: [['id', 'DESC']],
    });
    expect(JSON.parse(entry?.details ?? '{}')).toMatchObject({
      reason: 'Revoked by admin',
      authorization_id: grantId,
    });
    expect((await as('/tokens?active_only=true').get()).body).toMatchObject({ tokens: [], total_count: 0 });
    // An access token the provider issued under another (live) grant of this user: listed, then revoked.
    const liveGrant = `grant-${randomBytes(8).toString('hex')}`;
    await t.services.grants.recordConsent({
      grantId: liveGrant,
      userId: user.user.id,
      partnerId: partner.partner.id,
      siteId: site.id,
      clientId: site.client_id,
      scopes: ['basic_info', 'AGE_18'],
      expiresAt: new Date(t.clock.now().getTime() + 86400_000),
      jurisdiction: null,
    });
    const tokenId = `tok${randomBytes(12).toString('hex')}`;
    await t.db.models.OidcPayload.create({
      model: 'AccessToken',
      id: tokenId,
      payload: JSON.stringify({ clientId: site.client_id, scope: 'openid basic_info', iat: 1_764_000_000 }),
      grant_id: liveGrant,
      user_code: null,
      uid: null,
      expires_at: new Date(t.clock.now().getTime() + 3600_000),
      consumed_at: null,
    } as never);
    const tokens = await as(`/tokens?user_id=${user.user.id}&active_only=true`).get().expect(200);
    expect(tokens.body).toMatchObject({
      total_count: 1,
      tokens: [
        expect.objectContaining({
          id: tokenId,
          partner_id: partner.partner.id,
          is_active: true,
          scopes: ['openid', 'basic_info'],
        }),
      ],
    });
    expect((await as(`/tokens?partner_id=${partner.partner.id}`).get()).body.total_count).toBe(1);
    // By person or partner, by part of a name or an address, as well as by id.
    const partnerRow = await t.db.models.Partner.findByPk(partner.partner.id);
    const partnerWord = (partnerRow?.company_name ?? '').slice(0, 6).toUpperCase();
    const userWord = user.email.split('@')[0] as string;
    expect((await as(`/tokens?user=${userWord}`).get().expect(200)).body.total_count).toBe(1);
    expect(
      (await as(`/tokens?user=${userWord}&partner=${encodeURIComponent(partnerWord)}`).get()).body
        .total_count,
    ).toBeGreaterThanOrEqual(1);
    expect((await as(`/tokens?user=nobody-by-this-name`).get()).body).toEqual({ tokens: [], total_count: 0 });
    expect(
      (await as(`/oauth-authorizations?user=${userWord}&active_only=false`).get()).body.total_count,
    ).toBeGreaterThanOrEqual(1);
    const gone = await as(`/tokens/${tokenId}/revoke`)
      .post({ reason: 'Leaked in a log', notify_partner: true })
      .expect(200);
    expect(gone.body.is_active).toBe(false);
    expect(await t.db.models.OidcPayload.count({ where: { id: tokenId } })).toBe(0);
    await t.smtp.waitFor(partner.email, /access token was revoked/);
    expect((await as(`/tokens/${tokenId}/revoke`).post({})).status).toBe(404);
    expect((await as('/tokens/abcdefghijkl/revoke').post({})).status).toBe(404);
  });
});
