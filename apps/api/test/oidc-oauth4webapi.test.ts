import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { createTestApp, type TestApp } from './helpers';
import { Browser, authorizeInBrowser, createSite, registerPartner, verifiedUser } from './oidc-helpers';

// A second, independent relying-party implementation over the same main flow.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

describe('OpenID Connect with oauth4webapi', () => {
  it('runs discovery, code + PKCE, ID token validation, userinfo, introspection and revocation', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const user = await verifiedUser(t, { proven_min_age: 22 });
    const insecure = { [oauth.allowInsecureRequests]: true };
    const issuer = new URL(`${t.baseUrl}/oauth2`);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
    const rp: oauth.Client = { client_id: site.client_id };
    const auth = oauth.ClientSecretBasic(site.client_secret as string);
    const redirectUri = site.redirect_uris[0] as string;
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint as string);
    url.searchParams.set('client_id', rp.client_id);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', 'openid basic_info email AGE_21');
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('state', state);
    url.searchParams.set('nonce', nonce);

    const { callback } = await authorizeInBrowser(t, new Browser(), url.href, { login: user });
    const params = oauth.validateAuthResponse(as, rp, new URL(callback), state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      rp,
      auth,
      params,
      redirectUri,
      verifier,
      insecure,
    );
    const result = await oauth.processAuthorizationCodeResponse(as, rp, response, {
      expectedNonce: nonce,
      requireIdToken: true,
    });
    const claims = oauth.getValidatedIdTokenClaims(result);
    expect(claims?.iss).toBe(issuer.href);

    const info = await oauth.processUserInfoResponse(
      as,
      rp,
      claims?.sub as string,
      await oauth.userInfoRequest(as, rp, result.access_token, insecure),
    );
    expect(info).toMatchObject({
      email: user.email,
      age_verified: true,
      age_threshold: 21,
      age_over_21: true,
    });

    const active = await oauth.processIntrospectionResponse(
      as,
      rp,
      await oauth.introspectionRequest(as, rp, auth, result.access_token, insecure),
    );
    expect(active.active).toBe(true);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, rp, auth, result.access_token, insecure),
    );
    const inactive = await oauth.processIntrospectionResponse(
      as,
      rp,
      await oauth.introspectionRequest(as, rp, auth, result.access_token, insecure),
    );
    expect(inactive.active).toBe(false);
  });
});
