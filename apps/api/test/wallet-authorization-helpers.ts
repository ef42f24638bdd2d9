import { importJWK, SignJWT } from 'jose';
import { clientAuthenticationNone } from '@openid4vc/oauth2';
import { Openid4vciClient } from '@openid4vc/openid4vci';
import { signUp, type TestApp } from './helpers';
import { holderKey, proveAge, walletCallbacks, type HolderKey } from './wallet-helpers';

/**
 * The test wallet of the authorization code flow (issue 24 item 3), built from the @openid4vc client libraries: it
 * starts the issuance itself (OID4VCI §5, no offer) as a registered public client, pushes its request with PKCE,
 * and asks the credential endpoint with one fresh key per credential.
 */

export const WALLET = 'eu.example.wallet';
export const REDIRECT = 'https://wallet.example/callback';

export async function provenUser(
  t: TestApp,
  minAge: number,
  method: 'document' | 'facial_recognition' = 'document',
) {
  const user = await signUp(t);
  await proveAge(t, user.user.id, { minAge, method });
  return user;
}

/** A wallet-initiated issuance (no offer): what a wallet does when the user picks Attestly in its issuer list. */
export async function startIssuance(
  t: TestApp,
  configurations: string[],
  options: { clientId?: string; redirectUri?: string; details?: object[] } = {},
) {
  const issuer = `${t.baseUrl}/oauth2`;
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
export async function credentialRequest(
  t: TestApp,
  accessToken: string,
  configuration: string | { identifier: string },
  count = 2,
) {
  const issuer = `${t.baseUrl}/oauth2`;
  const c_nonce = (
    (await (await fetch(`${issuer}/challenge`, { method: 'POST' })).json()) as { c_nonce: string }
  ).c_nonce;
  const keys = await Promise.all(Array.from({ length: count }, () => holderKey()));
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
