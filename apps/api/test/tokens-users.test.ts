import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, type TestApp } from './helpers';
import { createSite, fullFlow, registerPartner, verifiedUser } from './oidc-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

describe("users' tokens", () => {
  it('lists the grants a user gave, with site, partner, age threshold, scopes, jurisdiction and status', async () => {
    const partner = await registerPartner(t, { company_name: 'Acme Games' });
    const site = await createSite(t, partner.token, { site_name: 'Acme Arcade' });
    const user = await verifiedUser(t, {
      proven_min_age: 21,
      location_country: 'GB',
      location_state: 'London',
    });
    await fullFlow(t, site, user, { scope: 'openid basic_info AGE_21 location_verification' });
    const response = await t.request
      .get('/api/v1/users/tokens')
      .set('Authorization', `Bearer ${user.token}`)
      .expect(200);
    expect(response.body.total_count).toBe(1);
    expect(response.body.tokens[0]).toMatchObject({
      site_id: site.id,
      site_name: 'Acme Arcade',
      partner_id: partner.partner.id,
      partner_name: 'Acme Games',
      age_threshold: 21,
      scopes: ['basic_info', 'AGE_21', 'location_verification'],
      revoked: false,
      revoked_at: null,
      jurisdiction: 'GB-London',
    });
    expect(new Date(response.body.tokens[0].expires_at).getTime()).toBeGreaterThan(Date.now());
  });

  it("revokes a user's token: the partner's tokens stop working, the event is queued and audited", async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const { config, tokens } = await fullFlow(t, site, user, {
      scope: 'openid offline_access basic_info AGE_18',
      prompt: 'consent',
    });
    const list = await t.request
      .get('/api/v1/users/tokens')
      .set('Authorization', `Bearer ${user.token}`)
      .expect(200);
    const id = list.body.tokens[0].id as string;
    await t.request
      .delete(`/api/v1/users/tokens/${id}`)
      .set('Authorization', `Bearer ${user.token}`)
      .expect(204);
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const after = await t.request
      .get('/api/v1/users/tokens')
      .set('Authorization', `Bearer ${user.token}`)
      .expect(200);
    expect(after.body.tokens[0]).toMatchObject({ id, revoked: true });
    const again = await t.request
      .delete(`/api/v1/users/tokens/${id}`)
      .set('Authorization', `Bearer ${user.token}`)
      .expect(409);
    expect(again.body.detail).toBe('This token is no longer active');
    const event = await t.db.models.EventOutbox.findOne({
      where: { partner_id: partner.partner.id, event: 'token.revoked' },
    });
    expect(JSON.parse(event?.payload ?? '{}').data).toMatchObject({
      token_id: id,
      reason: 'user_revoked',
      user_id: tokens.claims()?.sub,
    });
    const audit = await t.db.models.AuditLog.findOne({
      where: { event_type: 'oauth.token_revoked', user_id: user.user.id },
    });
    expect(audit?.partner_id).toBe(partner.partner.id);
    // The next authorization asks for consent again: the revoked grant is not remembered.
    const next = await fullFlow(t, site, user);
    expect(next.steps).toEqual(['login', 'consent']);
  });

  it("does not let a user see or revoke another user's token", async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const owner = await verifiedUser(t);
    const other = await verifiedUser(t);
    await fullFlow(t, site, owner);
    const list = await t.request
      .get('/api/v1/users/tokens')
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200);
    const id = list.body.tokens[0].id as string;
    expect(
      (await t.request.get('/api/v1/users/tokens').set('Authorization', `Bearer ${other.token}`).expect(200))
        .body.tokens,
    ).toEqual([]);
    await t.request
      .delete(`/api/v1/users/tokens/${id}`)
      .set('Authorization', `Bearer ${other.token}`)
      .expect(404);
    await t.request
      .delete(`/api/v1/users/connected-partners/${partner.partner.id}`)
      .set('Authorization', `Bearer ${other.token}`)
      .expect(404);
    await t.request.get('/api/v1/users/tokens').expect(401);
    const still = await t.request
      .get('/api/v1/users/tokens')
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200);
    expect(still.body.tokens[0].revoked).toBe(false);
  });

  it('lists connected partners and disconnects one, revoking all its sites', async () => {
    const partner = await registerPartner(t, { company_name: 'Two Sites Inc' });
    const first = await createSite(t, partner.token, {
      site_name: 'One',
      redirect_uris: ['https://one.example.com/cb'],
    });
    const second = await createSite(t, partner.token, {
      site_name: 'Two',
      redirect_uris: ['https://two.example.com/cb'],
    });
    const user = await verifiedUser(t, { proven_min_age: 18 });
    await fullFlow(t, first, user);
    await fullFlow(t, second, user);
    const connected = await t.request
      .get('/api/v1/users/connected-partners')
      .set('Authorization', `Bearer ${user.token}`)
      .expect(200);
    expect(connected.body.total_count).toBe(1);
    expect(connected.body.partners[0]).toMatchObject({
      id: partner.partner.id,
      partner_name: 'Two Sites Inc',
      active_tokens: 2,
    });
    expect(
      connected.body.partners[0].sites.map((site: { site_name: string }) => site.site_name).sort(),
    ).toEqual(['One', 'Two']);
    const removed = await t.request
      .delete(`/api/v1/users/connected-partners/${partner.partner.id}`)
      .set('Authorization', `Bearer ${user.token}`)
      .expect(200);
    expect(removed.body.revoked_tokens).toBe(2);
    expect(
      (
        await t.request
          .get('/api/v1/users/connected-partners')
          .set('Authorization', `Bearer ${user.token}`)
          .expect(200)
      ).body.partners,
    ).toEqual([]);
  });
});
