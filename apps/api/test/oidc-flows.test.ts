import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, type TestApp } from './helpers';
import {
  Browser,
  authorizeInBrowser,
  createSite,
  eventually,
  fullFlow,
  pkce,
  registerPartner,
  relyingParty,
  verifiedUser,
  type CreatedSite,
} from './oidc-helpers';

let t: TestApp;
let partner: Awaited<ReturnType<typeof registerPartner>>;
let site: CreatedSite;

beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  partner = await registerPartner(t);
  site = await createSite(t, partner.token);
});
afterAll(async () => {
  await t?.close();
});

describe('OpenID Connect with openid-client', () => {
  it('publishes discovery metadata with the spec paths, S256 only and pairwise subjects', async () => {
    const response = await t.request.get('/oauth2/.well-known/openid-configuration').expect(200);
    expect(response.body.issuer).toBe(`${t.baseUrl}/oauth2`);
    expect(response.body.authorization_endpoint).toBe(`${t.baseUrl}/oauth2/authorize`);
    expect(response.body.token_endpoint).toBe(`${t.baseUrl}/oauth2/token`);
    expect(response.body.userinfo_endpoint).toBe(`${t.baseUrl}/oauth2/userinfo`);
    expect(response.body.revocation_endpoint).toBe(`${t.baseUrl}/oauth2/revoke`);
    expect(response.body.introspection_endpoint).toBe(`${t.baseUrl}/oauth2/introspect`);
    expect(response.body.end_session_endpoint).toBe(`${t.baseUrl}/oauth2/end_session`);
    expect(response.body.pushed_authorization_request_endpoint).toBe(`${t.baseUrl}/oauth2/par`);
    expect(response.body.code_challenge_methods_supported).toEqual(['S256']);
    expect(response.body.subject_types_supported).toContain('pairwise');
    expect(response.body.scopes_supported).toEqual(
      expect.arrayContaining(['basic_info', 'AGE_18', 'offline_access']),
    );
    const jwks = await t.request.get('/oauth2/jwks').expect(200);
    expect(jwks.body.keys.map((key: { alg: string }) => key.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(jwks.body.keys.every((key: { d?: string }) => key.d === undefined)).toBe(true);
  });

  it('runs code + PKCE for a confidential client: sign-in, consent, tokens, ID token and userinfo', async () => {
    const user = await verifiedUser(t, { proven_min_age: 19 });
    const { config, tokens, steps } = await fullFlow(t, site, user);
    expect(steps).toEqual(['login', 'consent']);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope?.split(' ').sort()).toEqual(['AGE_18', 'basic_info', 'openid']);
    expect(tokens.refresh_token).toBeUndefined();
    const idClaims = tokens.claims();
    expect(idClaims?.iss).toBe(`${t.baseUrl}/oauth2`);
    expect(idClaims?.sub).not.toBe(user.user.id);
    const info = await client.fetchUserInfo(config, tokens.access_token, idClaims?.sub as string);
    expect(info).toEqual({
      // No name or e-mail: those are the optional `profile` and `email` scopes (oidc-claims.test.ts).
      sub: idClaims?.sub,
      age_verified: true,
      age_threshold: 18,
      age_over_18: true,
      verification_timestamp: expect.any(String),
    });
  });

  it('remembers consent per site: a second authorization in a new browser asks only to sign in', async () => {
    const user = await verifiedUser(t, { proven_min_age: 30 });
    await fullFlow(t, site, user);
    const second = await fullFlow(t, site, user, { browser: new Browser() });
    expect(second.steps).toEqual(['login']);
    const third = await fullFlow(t, site, user, { browser: second.browser });
    expect(third.steps).toEqual([]);
    const again = await fullFlow(t, site, user, { browser: second.browser, prompt: 'consent' });
    expect(again.steps).toEqual(['consent']);
    const more = await fullFlow(t, site, user, {
      browser: second.browser,
      scope: 'openid basic_info AGE_18 AGE_21',
    });
    expect(more.steps).toEqual(['consent']);
  });

  it('issues a refresh token for offline_access and rotates it; reusing a rotated one revokes the grant', async () => {
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const { config, tokens } = await fullFlow(t, site, user, {
      scope: 'openid offline_access basic_info AGE_18',
      prompt: 'consent',
    });
    const first = tokens.refresh_token as string;
    expect(first).toBeTruthy();
    const refreshed = await client.refreshTokenGrant(config, first);
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(first);
    await client.fetchUserInfo(config, refreshed.access_token, client.skipSubjectCheck);

    await expect(client.refreshTokenGrant(config, first)).rejects.toMatchObject({ error: 'invalid_grant' });
    // The whole grant is gone: the newer refresh token and its access token stop working too.
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const introspection = await client.tokenIntrospection(config, refreshed.access_token);
    expect(introspection.active).toBe(false);
    const row = await eventually(async () => {
      const found = await t.db.models.OAuthAuthorization.findOne({ where: { user_id: user.user.id } });
      return found?.revoked_at ? found : null;
    });
    expect(row.revoked_reason).toBe('token_reuse_detected');
    const event = await t.db.models.EventOutbox.findOne({
      where: { partner_id: partner.partner.id, event: 'token.revoked' },
    });
    expect(JSON.parse(event?.payload ?? '{}').data.token_id).toBe(row.id);
  });

  it('introspects active tokens for the site, then revokes the refresh token and with it the grant', async () => {
    const user = await verifiedUser(t, { proven_min_age: 21 });
    const { config, tokens } = await fullFlow(t, site, user, {
      scope: 'openid offline_access basic_info AGE_21',
      prompt: 'consent',
    });
    const active = await client.tokenIntrospection(config, tokens.access_token);
    expect(active).toMatchObject({
      active: true,
      client_id: site.client_id,
      token_type: 'Bearer',
      sub: tokens.claims()?.sub,
    });
    expect(active.scope?.split(' ')).toContain('AGE_21');
    await client.tokenRevocation(config, tokens.refresh_token as string);
    await expect(
      client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck),
    ).rejects.toBeTruthy();
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    const row = await eventually(async () => {
      const found = await t.db.models.OAuthAuthorization.findOne({ where: { user_id: user.user.id } });
      return found?.revoked_at ? found : null;
    });
    expect(row.revoked_reason).toBe('refresh_token_revoked');
  });

  it('ends the browser session at end_session but keeps tokens alive until their grant is revoked', async () => {
    const user = await verifiedUser(t, { proven_min_age: 19 });
    const { config, tokens, browser } = await fullFlow(t, site, user);
    const logout = new URL(`${t.baseUrl}/oauth2/end_session`);
    logout.searchParams.set('id_token_hint', tokens.id_token as string);
    logout.searchParams.set('post_logout_redirect_uri', site.redirect_uris[0] as string);
    const page = await browser.fetch(logout.href);
    expect(page.status).toBe(200);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(await page.text())?.[1];
    expect(xsrf).toBeTruthy();
    const confirmed = await browser.fetch(`${t.baseUrl}/oauth2/end_session/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf: xsrf as string, logout: 'yes' }).toString(),
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(site.redirect_uris[0]);

    // Signed out at Attestly: the next authorization in that browser asks to sign in again.
    const again = await fullFlow(t, site, user, { browser });
    expect(again.steps).toEqual(['login']);
    // The partner's token from before is untouched: it follows its grant, which is still active.
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
    const info = await client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck);
    expect(info.age_over_18).toBe(true);
    // Consent was not withdrawn by signing out (it used to be, recorded as if a token had been reused).
    const grants = await t.db.models.OAuthAuthorization.findAll({ where: { user_id: user.user.id } });
    expect(grants.map((grant) => grant.revoked_at)).toEqual([null]);
  });

  it('revoking only an access token keeps the grant', async () => {
    const user = await verifiedUser(t, { proven_min_age: 21 });
    const { config, tokens } = await fullFlow(t, site, user);
    await client.tokenRevocation(config, tokens.access_token);
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    const row = await t.db.models.OAuthAuthorization.findOne({ where: { user_id: user.user.id } });
    expect(row?.revoked_at).toBeNull();
  });

  it('serves a public client (no secret) with PKCE', async () => {
    const publicSite = await createSite(t, partner.token, {
      client_type: 'public',
      redirect_uris: ['http://localhost:5173/callback'],
    });
    expect(publicSite.client_secret).toBeUndefined();
    const user = await verifiedUser(t, { proven_min_age: 40 });
    const { config, tokens } = await fullFlow(t, publicSite, user);
    const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()?.sub as string);
    expect(info.age_verified).toBe(true);
  });

  it('gives a user the same subject at every site of one partner and different ones at other partners', async () => {
    const user = await verifiedUser(t, { proven_min_age: 25 });
    const otherSite = await createSite(t, partner.token, {
      site_name: 'Acme Blog',
      domain: 'blog.example.org',
      redirect_uris: ['https://blog.example.org/cb'],
    });
    const otherPartner = await registerPartner(t, { company_name: 'Other Corp' });
    const foreignSite = await createSite(t, otherPartner.token, {
      domain: 'other.example.net',
      redirect_uris: ['https://other.example.net/cb'],
    });
    const browser = new Browser();
    const a = await fullFlow(t, site, user, { browser });
    const b = await fullFlow(t, otherSite, user, { browser });
    const c = await fullFlow(t, foreignSite, user, { browser });
    expect(a.tokens.claims()?.sub).toBe(b.tokens.claims()?.sub);
    expect(c.tokens.claims()?.sub).not.toBe(a.tokens.claims()?.sub);
    expect([a, b, c].every((flow) => flow.tokens.claims()?.sub !== user.user.id)).toBe(true);
  });

  it('accepts a pushed authorization request (PAR)', async () => {
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const config = await relyingParty(t, site);
    const { verifier, challenge } = pkce();
    const state = client.randomState();
    const url = await client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: site.redirect_uris[0] as string,
      scope: 'openid basic_info',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
    });
    expect(url.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    const { callback } = await authorizeInBrowser(t, new Browser(), url.href, { login: user });
    const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.access_token).toBeTruthy();
  });

  it('records token issuance and consent in the audit log with partner and user ids', async () => {
    const user = await verifiedUser(t, { proven_min_age: 18 });
    await fullFlow(t, site, user);
    const issued = await eventually(() =>
      t.db.models.AuditLog.findOne({ where: { event_type: 'oauth.token_issued', user_id: user.user.id } }),
    );
    expect(issued.partner_id).toBe(partner.partner.id);
    const consent = await t.db.models.AuditLog.findOne({
      where: { event_type: 'oauth.consent_granted', user_id: user.user.id },
    });
    expect(consent?.partner_id).toBe(partner.partner.id);
  });
});
