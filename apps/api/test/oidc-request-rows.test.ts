import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, type TestApp } from './helpers';
import { createSite, fullFlow, registerPartner, verifiedUser, type CreatedSite } from './oidc-helpers';

/**
 * Userinfo and introspection read an access token with its grant (and, for userinfo, its account) in one statement
 * (oidc/request-rows.ts). Those rows serve one request only: whatever changes in the database — written here
 * straight to the tables, as another replica would — is seen by the very next request.
 */
let t: TestApp;
let site: CreatedSite;

beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  const partner = await registerPartner(t);
  site = await createSite(t, partner.token);
});
afterAll(async () => {
  await t?.close();
});

const introspect = (token: string, hint?: string) =>
  t.request
    .post('/oauth2/introspect')
    .auth(site.client_id, site.client_secret as string)
    .type('form')
    .send({ token, ...(hint ? { token_type_hint: hint } : {}) })
    .expect(200);

describe('token, grant and account read together', () => {
  it('answers from the current rows every time: claims, a grant removed elsewhere, a disabled account', async () => {
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const { config, tokens } = await fullFlow(t, site, user, {
      scope: 'openid offline_access basic_info AGE_18',
      prompt: 'consent',
    });
    const sub = tokens.claims()?.sub as string;
    expect(await client.fetchUserInfo(config, tokens.access_token, sub)).toMatchObject({
      sub,
      age_verified: true,
      age_over_18: true,
    });

    // The account's facts change: the next userinfo says so (no claims kept between requests).
    await t.db.models.User.update({ proven_min_age: null }, { where: { id: user.user.id } });
    const unproven = await client.fetchUserInfo(config, tokens.access_token, sub);
    expect(unproven.age_verified).toBe(false);
    expect(unproven.age_over_18).toBeUndefined();

    // A refresh token is found by introspection with or without a hint, through the access token's read too.
    expect((await introspect(tokens.refresh_token as string)).body).toMatchObject({ active: true, sub });
    expect((await introspect(tokens.refresh_token as string, 'refresh_token')).body.active).toBe(true);
    expect((await introspect(tokens.access_token, 'access_token')).body).toMatchObject({ active: true, sub });

    // The account is disabled: userinfo refuses the token at once; introspection still describes it.
    await t.db.models.User.update({ is_active: false }, { where: { id: user.user.id } });
    const disabled = await t.request
      .get('/oauth2/userinfo')
      .set('Authorization', `Bearer ${tokens.access_token}`)
      .expect(401);
    expect(disabled.body.error).toBe('invalid_token');
    await t.db.models.User.update({ is_active: true }, { where: { id: user.user.id } });
    await client.fetchUserInfo(config, tokens.access_token, sub);

    // The grant row goes (as when another replica revokes it): the next requests refuse its tokens.
    const [token] = await t.db.read<{ grant_id: string }>(
      "SELECT grant_id FROM oidc_payloads WHERE model = 'AccessToken' AND grant_id IS NOT NULL AND account_id = :id",
      { id: user.user.id },
    );
    const grantId = token?.grant_id;
    expect(grantId).toBeTruthy();
    await t.db.write("DELETE FROM oidc_payloads WHERE model = 'Grant' AND id = :id", { id: grantId });
    await t.request.get('/oauth2/userinfo').set('Authorization', `Bearer ${tokens.access_token}`).expect(401);
    expect((await introspect(tokens.access_token)).body).toEqual({ active: false });
    expect((await introspect(tokens.refresh_token as string)).body).toEqual({ active: false });
  });

  it('refuses an unknown token and keeps answering the ones that exist', async () => {
    const user = await verifiedUser(t, { proven_min_age: 18 });
    const { config, tokens } = await fullFlow(t, site, user);
    await t.request.get('/oauth2/userinfo').set('Authorization', 'Bearer not-a-token').expect(401);
    expect((await introspect('not-a-token')).body).toEqual({ active: false });
    const sub = tokens.claims()?.sub as string;
    expect((await client.fetchUserInfo(config, tokens.access_token, sub)).sub).toBe(sub);
  });
});
