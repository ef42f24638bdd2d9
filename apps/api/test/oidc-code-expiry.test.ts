import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { createTestApp, type TestApp } from './helpers';
import {
  Browser,
  authorizeInBrowser,
  createSite,
  pkce,
  registerPartner,
  relyingParty,
  verifiedUser,
} from './oidc-helpers';

// oidc-provider keeps its own (real) clock, so expiry is tested with a one-second code lifetime and a real wait.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: { ttl: { AuthorizationCode: 1 } } });
});
afterAll(async () => {
  await t?.close();
});

describe('authorization code lifetime', () => {
  it('rejects a code exchanged after it expired', async () => {
    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const user = await verifiedUser(t);
    const config = await relyingParty(t, site);
    const { verifier, challenge } = pkce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: site.redirect_uris[0] as string,
      scope: 'openid basic_info',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's',
    });
    const { callback } = await authorizeInBrowser(t, new Browser(), url.href, { login: user });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await expect(
      client.authorizationCodeGrant(config, new URL(callback), {
        pkceCodeVerifier: verifier,
        expectedState: 's',
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});
