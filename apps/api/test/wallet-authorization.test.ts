import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Holder, IssuerSigned } from '@owf/mdoc';
import { mdocContext } from '../src/modules/users/wallet/mdoc-context';
import { parsePemBundle } from '../src/modules/users/wallet/certificates';
import { createTestApp, type TestApp } from './helpers';
import { authorizeInBrowser, Browser, uidFrom } from './oidc-helpers';
import {
  credentialRequest,
  provenUser,
  REDIRECT,
  startIssuance,
  WALLET,
} from './wallet-authorization-helpers';

/**
 * Issue 24 item 3: OpenID4VCI issuance through the authorization code flow for wallets the operator registers. The
 * test wallet (the @openid4vc client libraries) starts the issuance itself (OID4VCI §5, no offer), pushes its
 * request with PKCE, the user signs in and consents on the interaction API, and the wallet redeems the code and
 * asks the credential endpoint — all over HTTP against the real server, on SQLite or PostgreSQL.
 */

let t: TestApp;
let issuer: string;

beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  issuer = `${t.baseUrl}/oauth2`;
  await t.oidc!.wallet.clients.add({ clientId: WALLET, name: 'Example Wallet', redirectUris: [REDIRECT] });
});
afterAll(async () => {
  await t?.close();
});

describe('OpenID4VCI authorization code flow for registered wallets', () => {
  it('issues the requested configuration to a wallet that signed the user in with PKCE, and nothing else', async () => {
    const user = await provenUser(t, 22);
    const flow = await startIssuance(t, ['proof_of_age']);
    // Pushed (the provider advertises PAR), with an S256 challenge.
    expect(flow.authorizationRequestUrl).toContain('request_uri=');
    expect(flow.pkce?.codeChallengeMethod).toBe('S256');
    expect(flow.issuerMetadata.credentialIssuer.authorization_servers).toEqual([issuer]);
    expect(flow.issuerMetadata.authorizationServers[0]?.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'urn:ietf:params:oauth:grant-type:pre-authorized_code']),
    );

    const browser = new Browser();
    const location = await authorizeInBrowser(t, browser, flow.authorizationRequestUrl, {
      login: { email: user.email, password: user.password },
      consent: 'deny',
    });
    // The first pass pressed Deny: the wallet got access_denied at its redirect URI.
    expect(location.steps).toEqual(['login', 'consent']);
    const denied = new URL(location.callback);
    expect(`${denied.origin}${denied.pathname}`).toBe(REDIRECT);
    expect(denied.searchParams.get('error')).toBe('access_denied');

    // Again, now signed in at the provider: straight to consent, which shows what the credentials will say.
    const again = await startIssuance(t, ['proof_of_age']);
    const toConsent = await browser.fetch(again.authorizationRequestUrl);
    const consentUrl = new URL(toConsent.headers.get('location')!, t.baseUrl).href;
    expect(new URL(consentUrl).pathname).toBe('/oauth/consent');
    const described = (
      await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uidFrom(consentUrl)}`, 'GET')
    ).body;
    expect(described).toMatchObject({
      prompt: 'consent',
      site: { client_id: WALLET, site_name: 'Example Wallet', redirect_host: 'wallet.example' },
      scopes: [],
      user: { email: user.email },
      wallet: {
        credentials: [{ id: 'proof_of_age' }],
        age_over: { '12': true, '16': true, '18': true, '21': true },
        refused: null,
      },
    });
    const { callback } = await authorizeInBrowser(t, browser, consentUrl, { consent: 'wallet' });
    const answer = again.client.parseAndVerifyAuthorizationResponseRedirectUrl({
      url: callback,
      authorizationServerMetadata: again.issuerMetadata.authorizationServers[0]!,
    });
    expect(answer.code).toBeTruthy();

    const { accessTokenResponse } = await again.client.retrieveAuthorizationCodeAccessTokenFromOffer({
      credentialOffer: again.credentialOffer,
      issuerMetadata: again.issuerMetadata,
      authorizationCode: answer.code as string,
      pkceCodeVerifier: again.pkce?.codeVerifier,
      redirectUri: REDIRECT,
    });
    expect(accessTokenResponse.refresh_token).toBeUndefined();
    expect(accessTokenResponse.scope).toBe('proof_of_age');
    const accessToken = accessTokenResponse.access_token;

    const issued = await credentialRequest(t, accessToken, 'proof_of_age', 2);
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const credentials = (issued.body.credentials as Array<{ credential: string }>).map((c) => c.credential);
    expect(credentials).toHaveLength(2);
    const root = parsePemBundle(
      (await t.request.get('/.well-known/attestly/credential-root.pem').expect(200)).text,
    )[0]!;
    for (const credential of credentials) {
      const issuerSigned = IssuerSigned.fromEncodedForOid4Vci(credential);
      await Holder.verifyIssuerSigned(
        { issuerSigned, trustedCertificates: [new Uint8Array(root.rawData)] },
        mdocContext,
      );
      expect(issuerSigned.getPrettyClaims('eu.europa.ec.av.1')).toEqual({
        age_over_12: true,
        age_over_16: true,
        age_over_18: true,
        age_over_21: true,
      });
    }

    // The token is for the configuration the wallet asked for only.
    const other = await credentialRequest(t, accessToken, 'age_sd_jwt', 1);
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('credential_request_denied');

    const audit = await t.db.read<{ event_type: string }>(
      "SELECT event_type FROM audit_logs WHERE event_type = 'wallet.authorization_granted' AND user_id = :id",
      { id: user.user.id },
    );
    expect(audit).toHaveLength(1);
  });

  it('issues through authorization_details: the token names a credential identifier good for that configuration only', async () => {
    const user = await provenUser(t, 19);
    const flow = await startIssuance(t, [], {
      details: [{ type: 'openid_credential', credential_configuration_id: 'age_sd_jwt' }],
    });
    expect(flow.issuerMetadata.authorizationServers[0]?.authorization_details_types_supported).toEqual([
      'openid_credential',
    ]);
    const browser = new Browser();
    const { callback } = await authorizeInBrowser(t, browser, flow.authorizationRequestUrl, {
      login: { email: user.email, password: user.password },
      consent: 'wallet',
    });
    const code = new URL(callback).searchParams.get('code') as string;
    const { accessTokenResponse } = await flow.client.retrieveAuthorizationCodeAccessTokenFromOffer({
      credentialOffer: flow.credentialOffer,
      issuerMetadata: flow.issuerMetadata,
      authorizationCode: code,
      pkceCodeVerifier: flow.pkce?.codeVerifier,
      redirectUri: REDIRECT,
    });
    expect(accessTokenResponse.authorization_details).toEqual([
      {
        type: 'openid_credential',
        credential_configuration_id: 'age_sd_jwt',
        credential_identifiers: ['age_sd_jwt'],
      },
    ]);
    const token = accessTokenResponse.access_token;

    const issued = await credentialRequest(t, token, { identifier: 'age_sd_jwt' }, 2);
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const [sdJwt] = (issued.body.credentials as Array<{ credential: string }>).map((c) => c.credential);
    const payload = JSON.parse(Buffer.from(sdJwt!.split('.')[1]!, 'base64url').toString()) as {
      vct: string;
    };
    expect(payload.vct).toBe(`${issuer}/credentials/age/1`);

    const otherIdentifier = await credentialRequest(t, token, { identifier: 'proof_of_age' }, 1);
    expect(otherIdentifier.status).toBe(400);
    expect(otherIdentifier.body.error).toBe('unknown_credential_identifier');
    const otherConfiguration = await credentialRequest(t, token, 'proof_of_age', 1);
    expect(otherConfiguration.body.error).toBe('credential_request_denied');
  });

  it('shows a user the issuing policy refuses why, grants nothing, and the wallet gets access_denied', async () => {
    const user = await provenUser(t, 30, 'facial_recognition');
    const flow = await startIssuance(t, ['proof_of_age', 'age_sd_jwt']);
    const browser = new Browser();
    let location = flow.authorizationRequestUrl;
    for (let hop = 0; hop < 10 && new URL(location).pathname !== '/oauth/login'; hop++) {
      const response = await browser.fetch(location);
      location = new URL(response.headers.get('location')!, location).href;
    }
    const login = await browser.json(
      `${t.baseUrl}/api/v1/oauth/interactions/${uidFrom(location)}/login`,
      'POST',
      { email: user.email, password: user.password },
    );
    location = String(login.body.redirect_to);
    for (let hop = 0; hop < 10 && new URL(location).pathname !== '/oauth/consent'; hop++) {
      const response = await browser.fetch(location);
      location = new URL(response.headers.get('location')!, location).href;
    }
    const uid = uidFrom(location);
    const details = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}`, 'GET');
    const wallet = details.body.wallet as { refused: string; age_over: unknown };
    expect(wallet.refused).toMatch(/Wallet credentials need an age proven with an identity document/);
    expect(wallet.refused).toMatch(/face age estimation/);
    expect(wallet.age_over).toBeNull();
    expect(details.body.verify_url).toContain('/verification?return_to=');

    const consent = await browser.json(
      `${t.baseUrl}/api/v1/oauth/interactions/${uid}/wallet-consent`,
      'POST',
      {},
    );
    expect(consent.status).toBe(403);
    expect(consent.body).toMatchObject({ code: 'wallet.method_not_accepted' });
    const grants = await t.db.read<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM oidc_payloads WHERE model = 'Grant' AND account_id = :id",
      { id: user.user.id },
    );
    expect(Number(grants[0]?.n)).toBe(0);

    const abort = await browser.json(`${t.baseUrl}/api/v1/oauth/interactions/${uid}/abort`, 'POST', {});
    let back = String(abort.body.redirect_to);
    for (let hop = 0; hop < 10 && back.startsWith(t.baseUrl); hop++) {
      const response = await browser.fetch(back);
      back = new URL(response.headers.get('location')!, back).href;
    }
    expect(new URL(back).searchParams.get('error')).toBe('access_denied');
  });

  it("stops honouring a wallet's tokens once the operator removes it", async () => {
    const user = await provenUser(t, 40);
    await t.oidc!.wallet.clients.add({ clientId: 'removable.wallet', redirectUris: [REDIRECT] });
    const flow = await startIssuance(t, ['proof_of_age'], { clientId: 'removable.wallet' });
    const { callback } = await authorizeInBrowser(t, new Browser(), flow.authorizationRequestUrl, {
      login: { email: user.email, password: user.password },
      consent: 'wallet',
    });
    const { accessTokenResponse } = await flow.client.retrieveAuthorizationCodeAccessTokenFromOffer({
      credentialOffer: flow.credentialOffer,
      issuerMetadata: flow.issuerMetadata,
      authorizationCode: new URL(callback).searchParams.get('code') as string,
      pkceCodeVerifier: flow.pkce?.codeVerifier,
      redirectUri: REDIRECT,
    });
    expect(await t.oidc!.wallet.clients.remove('removable.wallet')).toBe(true);
    const refused = await credentialRequest(t, accessTokenResponse.access_token, 'proof_of_age', 1);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_token');
  });
});
