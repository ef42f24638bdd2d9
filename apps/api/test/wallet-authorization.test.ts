import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Holder, IssuerSigned } from '@owf/mdoc';
import { clientAuthenticationNone } from '@openid4vc/oauth2';
import { Openid4vciClient } from '@openid4vc/openid4vci';
import { mdocContext } from '../src/modules/wallet/mdoc-context';
import { parsePemBundle } from '../src/modules/wallet/certificates';
import { WalletClientError } from '../src/modules/wallet/clients';
import { createTestApp, signUp, type TestApp } from './helpers';
import { authorizeInBrowser, Browser, createSite, pkce, registerPartner, uidFrom } from './oidc-helpers';
import { holderKey, proveAge, walletCallbacks, type HolderKey } from './wallet-helpers';

/**
 * Issue 24 item 3: OpenID4VCI issuance through the authorization code flow for wallets the operator registers. The
 * test wallet (the @openid4vc client libraries) starts the issuance itself (OID4VCI §5, no offer), pushes its
 * request with PKCE, the user signs in and consents on the interaction API, and the wallet redeems the code and
 * asks the credential endpoint — all over HTTP against the real server, on SQLite or PostgreSQL.
 */

let t: TestApp;
const WALLET = 'eu.example.wallet';
const REDIRECT = 'https://wallet.example/callback';
let issuer: string;

beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
  issuer = `${t.baseUrl}/oauth2`;
  await t.oidc!.wallet.clients.add({ clientId: WALLET, name: 'Example Wallet', redirectUris: [REDIRECT] });
});
afterAll(async () => {
  await t?.close();
});

async function provenUser(minAge: number, method: 'document' | 'facial_recognition' = 'document') {
  const user = await signUp(t);
  await proveAge(t, user.user.id, { minAge, method });
  return user;
}

/** A wallet-initiated issuance (no offer): what a wallet does when the user picks Attestly in its issuer list. */
async function startIssuance(
  configurations: string[],
  options: { clientId?: string; redirectUri?: string; details?: object[] } = {},
) {
  const keys: HolderKey[] = [];
  // A public client: it names itself at the token endpoint (RFC 6749 §3.2.1) and proves nothing else but PKCE.
  const client = new Openid4vciClient({
    callbacks: {
      ...walletCallbacks(keys),
      clientAuthentication: clientAuthenticationNone({ clientId: options.clientId ?? WALLET }),
    },
  });
  const issuerMetadata = await client.resolveIssuerMetadata(issuer);
  const credentialOffer = {
    credential_issuer: issuer,
    credential_configuration_ids: configurations,
    grants: { authorization_code: {} },
  };
  const request = await client.createAuthorizationRequestUrlFromOffer({
    clientId: options.clientId ?? WALLET,
    redirectUri: options.redirectUri ?? REDIRECT,
    scope: configurations.length
      ? configurations
          .map((id) => issuerMetadata.credentialIssuer.credential_configurations_supported[id]?.scope)
          .join(' ')
      : undefined,
    ...(options.details ? { additionalRequestPayload: { authorization_details: options.details } } : {}),
    credentialOffer,
    issuerMetadata,
  });
  return { client, keys, issuerMetadata, credentialOffer, ...request };
}

/** A credential request naming a configuration, or (`{ identifier }`) a credential identifier from the token. */
async function credentialRequest(
  accessToken: string,
  configuration: string | { identifier: string },
  count = 2,
) {
  const c_nonce = (
    (await (await fetch(`${issuer}/challenge`, { method: 'POST' })).json()) as { c_nonce: string }
  ).c_nonce;
  const keys = await Promise.all(Array.from({ length: count }, () => holderKey()));
  const { SignJWT, importJWK } = await import('jose');
  const jwts = await Promise.all(
    keys.map(async (key) =>
      new SignJWT({ nonce: c_nonce })
        .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: key.publicJwk })
        .setAudience(issuer)
        .setIssuedAt()
        .sign(await importJWK(key.privateJwk, 'ES256')),
    ),
  );
  const response = await fetch(`${issuer}/credential`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({
      ...(typeof configuration === 'string'
        ? { credential_configuration_id: configuration }
        : { credential_identifier: configuration.identifier }),
      proofs: { jwt: jwts },
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('OpenID4VCI authorization code flow for registered wallets', () => {
  it('issues the requested configuration to a wallet that signed the user in with PKCE, and nothing else', async () => {
    const user = await provenUser(22);
    const flow = await startIssuance(['proof_of_age']);
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
    const again = await startIssuance(['proof_of_age']);
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

    const issued = await credentialRequest(accessToken, 'proof_of_age', 2);
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
    const other = await credentialRequest(accessToken, 'age_sd_jwt', 1);
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('credential_request_denied');

    const audit = await t.db.read<{ event_type: string }>(
      "SELECT event_type FROM audit_logs WHERE event_type = 'wallet.authorization_granted' AND user_id = :id",
      { id: user.user.id },
    );
    expect(audit).toHaveLength(1);
  });

  it('issues through authorization_details: the token names a credential identifier good for that configuration only', async () => {
    const user = await provenUser(19);
    const flow = await startIssuance([], {
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

    const issued = await credentialRequest(token, { identifier: 'age_sd_jwt' }, 2);
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const [sdJwt] = (issued.body.credentials as Array<{ credential: string }>).map((c) => c.credential);
    const payload = JSON.parse(Buffer.from(sdJwt!.split('.')[1]!, 'base64url').toString()) as {
      vct: string;
    };
    expect(payload.vct).toBe(`${issuer}/credentials/age/1`);

    const otherIdentifier = await credentialRequest(token, { identifier: 'proof_of_age' }, 1);
    expect(otherIdentifier.status).toBe(400);
    expect(otherIdentifier.body.error).toBe('unknown_credential_identifier');
    const otherConfiguration = await credentialRequest(token, 'proof_of_age', 1);
    expect(otherConfiguration.body.error).toBe('credential_request_denied');
  });

  it('refuses authorization_details naming an unknown configuration, or from a partner site', async () => {
    const { challenge } = pkce();
    const ask = (clientId: string, redirectUri: string, detail: object) =>
      fetch(
        `${issuer}/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: clientId,
          redirect_uri: redirectUri,
          authorization_details: JSON.stringify([detail]),
          code_challenge: challenge,
          code_challenge_method: 'S256',
        })}`,
        { redirect: 'manual' },
      );
    const unknown = await ask(WALLET, REDIRECT, {
      type: 'openid_credential',
      credential_configuration_id: 'driving_licence',
    });
    expect(new URL(unknown.headers.get('location')!).searchParams.get('error')).toBe(
      'invalid_authorization_details',
    );

    const partner = await registerPartner(t);
    const site = await createSite(t, partner.token);
    const fromSite = await ask(site.client_id, site.redirect_uris[0]!, {
      type: 'openid_credential',
      credential_configuration_id: 'proof_of_age',
    });
    const answer = new URL(fromSite.headers.get('location')!);
    expect(`${answer.origin}${answer.pathname}`).toBe(site.redirect_uris[0]);
    expect(answer.searchParams.get('error')).toBe('invalid_authorization_details');
  });

  it('refuses an unregistered client and a redirect URI that was not registered, without redirecting', async () => {
    const challenge = pkce().challenge;
    const query = (overrides: Record<string, string>) =>
      new URLSearchParams({
        response_type: 'code',
        client_id: WALLET,
        redirect_uri: REDIRECT,
        scope: 'proof_of_age',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        ...overrides,
      });
    const unknown = await fetch(`${issuer}/authorize?${query({ client_id: 'unknown.wallet' })}`, {
      redirect: 'manual',
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toBe('invalid_client');

    for (const redirect of [`${REDIRECT}/other`, 'https://evil.example/callback']) {
      const wrong = await fetch(`${issuer}/authorize?${query({ redirect_uri: redirect })}`, {
        redirect: 'manual',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.headers.get('location')).toBeNull();
      expect(((await wrong.json()) as { error: string }).error).toBe('invalid_redirect_uri');
    }
  });

  it('refuses a request without PKCE, and OpenID Connect or product scopes for a wallet', async () => {
    const base = { response_type: 'code', client_id: WALLET, redirect_uri: REDIRECT };
    const noPkce = await fetch(
      `${issuer}/authorize?${new URLSearchParams({ ...base, scope: 'proof_of_age' })}`,
      { redirect: 'manual' },
    );
    const back = new URL(noPkce.headers.get('location') ?? 'about:blank');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/PKCE/);

    const { challenge } = pkce();
    for (const scope of ['openid proof_of_age', 'AGE_18 proof_of_age']) {
      const asked = await fetch(
        `${issuer}/authorize?${new URLSearchParams({ ...base, scope, code_challenge: challenge, code_challenge_method: 'S256' })}`,
        { redirect: 'manual' },
      );
      const answer = new URL(asked.headers.get('location') ?? 'about:blank');
      expect(answer.searchParams.get('error')).toBe('invalid_scope');
    }
  });

  it('refuses a wrong code verifier at the token endpoint', async () => {
    const user = await provenUser(19);
    const flow = await startIssuance(['age_sd_jwt']);
    const { callback } = await authorizeInBrowser(t, new Browser(), flow.authorizationRequestUrl, {
      login: { email: user.email, password: user.password },
      consent: 'wallet',
    });
    const code = new URL(callback).searchParams.get('code') as string;
    const response = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: WALLET,
        code,
        redirect_uri: REDIRECT,
        code_verifier: pkce().verifier,
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('shows a user the issuing policy refuses why, grants nothing, and the wallet gets access_denied', async () => {
    const user = await provenUser(30, 'facial_recognition');
    const flow = await startIssuance(['proof_of_age', 'age_sd_jwt']);
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

  it('registers wallet clients with exact redirect URIs and refuses bad registrations', async () => {
    const clients = t.oidc!.wallet.clients;
    await expect(
      clients.add({ clientId: 'second.wallet', redirectUris: ['eudi-openid4ci://authorize'] }),
    ).resolves.toMatchObject({ clientId: 'second.wallet', name: 'second.wallet' });
    for (const [input, message] of [
      [{ clientId: WALLET, redirectUris: [REDIRECT] }, /already registered/],
      [{ clientId: 'attestly-wallet', redirectUris: [REDIRECT] }, /reserved/],
      [{ clientId: 'x', redirectUris: [REDIRECT] }, /client id/],
      [{ clientId: 'third.wallet', redirectUris: [] }, /at least one/],
      [{ clientId: 'third.wallet', redirectUris: ['http://wallet.example/cb'] }, /loopback/],
      [{ clientId: 'third.wallet', redirectUris: ['https://wallet.example/cb#x'] }, /fragment|normal form/],
      [{ clientId: 'third.wallet', redirectUris: ['javascript:alert(1)'] }, /scheme/],
    ] as const) {
      await expect(clients.add({ ...input, redirectUris: [...input.redirectUris] })).rejects.toThrow(message);
      await expect(clients.add({ ...input, redirectUris: [...input.redirectUris] })).rejects.toBeInstanceOf(
        WalletClientError,
      );
    }
    expect((await clients.list()).map((client) => client.clientId)).toEqual(
      expect.arrayContaining([WALLET, 'second.wallet']),
    );
    expect(await clients.remove('second.wallet')).toBe(true);
    expect(await clients.remove('second.wallet')).toBe(false);
  });
});
