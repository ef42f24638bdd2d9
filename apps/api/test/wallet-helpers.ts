import { createHash, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import {
  CoseKey,
  DeviceRequest,
  DocRequest,
  Holder,
  IssuerSigned,
  ItemsRequest,
  SessionTranscript,
} from '@owf/mdoc';
import {
  clientAuthenticationAnonymous,
  setGlobalConfig,
  type CallbackContext,
  type JwtSigner,
} from '@openid4vc/oauth2';
import { Openid4vciClient } from '@openid4vc/openid4vci';
import {
  createRootCertificate,
  createSignerCertificate,
  parseCertificate,
  privateKeyObject,
} from '../src/modules/users/wallet/certificates';
import { mdocContext } from '../src/modules/users/wallet/mdoc-context';
import { onPostgres, type TestApp } from './helpers';

/**
 * The test wallet (issue 24): built from the @openid4vc client libraries, it speaks HTTP to the real server the way
 * a phone wallet would — resolves the offer by reference, reads both well-known metadata documents, redeems the
 * pre-authorized code, asks for a c_nonce, proves possession of one fresh key per credential.
 */
setGlobalConfig({ allowInsecureUrls: true });

export interface HolderKey {
  publicJwk: JWK;
  privateJwk: JWK;
}

export async function holderKey(): Promise<HolderKey> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
}

/** Signs whatever the client library asks with the private key matching the signer's public JWK. */
export function walletCallbacks(
  keys: HolderKey[],
): Omit<CallbackContext, 'verifyJwt' | 'decryptJwe' | 'encryptJwe'> {
  return {
    fetch,
    hash: (data, alg) => new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest()),
    generateRandom: (length) => new Uint8Array(randomBytes(length)),
    clientAuthentication: clientAuthenticationAnonymous(),
    signJwt: async (signer: JwtSigner, { header, payload }) => {
      if (signer.method !== 'jwk')
        throw new Error(`test wallet signs with jwk keys only, not ${signer.method}`);
      const key = keys.find((candidate) => candidate.publicJwk.x === signer.publicJwk.x);
      if (!key) throw new Error('no such wallet key');
      const jwt = await new SignJWT(payload as never)
        .setProtectedHeader(header as never)
        .sign(await importJWK(key.privateJwk, 'ES256'));
      return { jwt, signerJwk: signer.publicJwk };
    },
  };
}

/** A user's "Add to wallet": the offer answer from POST /api/v1/wallet/offers. */
export async function createOffer(t: TestApp, token: string, body: { same_device?: boolean } = {}) {
  const response = await t.request
    .post('/api/v1/wallet/offers')
    .set('Authorization', `Bearer ${token}`)
    .send(body);
  return response;
}

const PRE_AUTH = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

/** The pre-authorized code inside an offer, fetched the way a wallet does. */
export async function offerCode(offerUrl: string): Promise<string> {
  const uri = new URL(offerUrl).searchParams.get('credential_offer_uri') as string;
  const offer = (await (await fetch(uri)).json()) as { grants: Record<string, Record<string, string>> };
  return offer.grants[PRE_AUTH]!['pre-authorized_code'] as string;
}

/** Redeems a pre-authorized code (and its transaction code) at the token endpoint of the issuer at `base`. */
export async function preAuthorizedToken(base: string, code: string, txCode?: string) {
  const body = new URLSearchParams({ grant_type: PRE_AUTH, 'pre-authorized_code': code });
  if (txCode !== undefined) body.set('tx_code', txCode);
  const response = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

export interface ReceiveOptions {
  txCode?: string;
  /** How many credentials per configuration (one key each). */
  count?: number;
  configurations?: string[];
}

/** The whole issuance as a wallet runs it; returns each configuration's credentials and the keys they are bound to. */
export async function receiveCredentials(offerUrl: string, options: ReceiveOptions = {}) {
  const keys: HolderKey[] = [];
  const client = new Openid4vciClient({ callbacks: walletCallbacks(keys) });
  const credentialOffer = await client.resolveCredentialOffer(offerUrl);
  const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
  const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
    credentialOffer,
    issuerMetadata,
    txCode: options.txCode,
  });
  const received: Record<string, { credentials: string[]; keys: HolderKey[] }> = {};
  for (const configuration of options.configurations ?? credentialOffer.credential_configuration_ids) {
    const { c_nonce } = await client.requestNonce({ issuerMetadata });
    const batch: HolderKey[] = [];
    const proofs: string[] = [];
    for (let index = 0; index < (options.count ?? 2); index++) {
      const key = await holderKey();
      keys.push(key);
      batch.push(key);
      const { jwt } = await client.createCredentialRequestJwtProof({
        issuerMetadata,
        credentialConfigurationId: configuration,
        nonce: c_nonce,
        signer: { method: 'jwk', alg: 'ES256', publicJwk: key.publicJwk as never },
      });
      proofs.push(jwt);
    }
    const response = await client.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId: configuration,
      proofs: { jwt: proofs },
    });
    const credentials = (response.credentialResponse.credentials ?? []).map(
      (entry) => (entry as { credential: string }).credential,
    );
    received[configuration] = { credentials, keys: batch };
  }
  return { received, issuerMetadata, credentialOffer, accessToken: accessTokenResponse.access_token };
}

/**
 * Records an approved age verification for a user, as the verification service leaves it: the row (method, what it
 * proves, when it stops counting) and the user's proven age.
 */
export async function proveAge(
  t: TestApp,
  userId: string,
  proof: { minAge: number; method?: 'document' | 'facial_recognition'; reviewedBy?: string; days?: number },
) {
  const now = t.clock.now();
  const until = new Date(now.getTime() + (proof.days ?? 365) * 86_400_000);
  await t.db.models.Verification.create({
    user_id: userId,
    verification_type: 'age',
    verification_method: proof.method ?? 'document',
    status: 'approved',
    confidence_score: 0.97,
    age_threshold: 18,
    message: 'approved',
    result_details: { proves: { minAge: proof.minAge } },
    document_analysis: null,
    subject_fingerprint: null,
    partner_id: null,
    site_id: null,
    reviewed_at: proof.reviewedBy ? now : null,
    reviewed_by: proof.reviewedBy ?? null,
    expires_at: until,
    created_at: now,
    updated_at: now,
  });
  const user = await t.db.models.User.findByPk(userId);
  if (
    user &&
    (user.proven_min_age === null || user.proven_min_age < proof.minAge || !user.age_verified_until)
  ) {
    await user.update({ proven_min_age: proof.minAge, age_verified_at: now, age_verified_until: until });
  }
}

/** The request inside an `openid4vp://` link, as a wallet reads it. */
export function readPresentationRequest(walletUrl: string) {
  const params = new URL(walletUrl).searchParams;
  return {
    clientId: params.get('client_id') as string,
    responseUri: params.get('response_uri') as string,
    responseMode: params.get('response_mode') as string,
    nonce: params.get('nonce') as string,
    state: params.get('state') as string,
    dcql: JSON.parse(params.get('dcql_query') as string) as { credentials: Array<{ id: string }> },
    clientMetadata: JSON.parse(params.get('client_metadata') as string) as { jwks?: { keys: JWK[] } },
  };
}

/** An SD-JWT VC presentation disclosing only `age_equal_or_over.<ages>`, with a KB-JWT for this request. */
export async function presentSdJwt(
  credential: string,
  key: HolderKey,
  request: { clientId: string; nonce: string },
  ages: string[] = ['18'],
  iat = Math.floor(Date.now() / 1000),
) {
  const { SDJwtVcInstance } = await import('@sd-jwt/sd-jwt-vc');
  const signingKey = await importJWK(key.privateJwk, 'ES256');
  const instance = new SDJwtVcInstance({
    hasher: (data: string | ArrayBuffer) =>
      new Uint8Array(
        createHash('sha256')
          .update(typeof data === 'string' ? data : Buffer.from(data))
          .digest(),
      ),
    hashAlg: 'sha-256',
    kbSignAlg: 'ES256',
    kbSigner: async (data: string) => {
      const jws = await new SignJWT(
        JSON.parse(Buffer.from(data.split('.')[1] as string, 'base64url').toString()),
      )
        .setProtectedHeader(JSON.parse(Buffer.from(data.split('.')[0] as string, 'base64url').toString()))
        .sign(signingKey);
      return jws.split('.')[2] as string;
    },
  });
  return instance.present(
    credential,
    { age_equal_or_over: Object.fromEntries(ages.map((age) => [age, true])) } as never,
    { kb: { payload: { iat, aud: request.clientId, nonce: request.nonce } } },
  );
}

/** Posts the wallet's answer to the response URI (direct_post). */
export async function postPresentation(
  request: { responseUri: string; state: string },
  vpToken: Record<string, string[]>,
) {
  const response = await fetch(request.responseUri, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ vp_token: JSON.stringify(vpToken), state: request.state }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** A CA of another issuer (an EU AV provider, a PID provider) and a signer under it. */
export async function foreignIssuer() {
  const now = new Date();
  const root = await createRootCertificate({ name: 'Test AV Provider', country: 'DE', now, years: 2 });
  const signer = await createSignerCertificate({
    root,
    issuer: 'https://av.example',
    country: 'DE',
    now,
    signingDays: 30,
    credentialDays: 30,
  });
  return {
    rootPem: root.pem,
    signer: {
      id: 'test',
      chain: [new Uint8Array(parseCertificate(signer.pem).rawData)],
      privateKey: privateKeyObject(signer.privateKey),
    },
  };
}

/** An mdoc DeviceResponse for an OpenID4VP request: age_over_18 disclosed, signed by the device key over the session transcript. */
export async function mdocPresentation(
  credential: string,
  key: HolderKey,
  request: ReturnType<typeof readPresentationRequest>,
  docType = 'eu.europa.ec.av.1',
) {
  const encryptionKey = request.clientMetadata.jwks?.keys[0];
  const sessionTranscript = await SessionTranscript.forOid4Vp(
    {
      clientId: request.clientId,
      nonce: request.nonce,
      responseUri: request.responseUri,
      ...(encryptionKey
        ? {
            jwkThumbprint: new Uint8Array(
              Buffer.from(await calculateJwkThumbprint(encryptionKey), 'base64url'),
            ),
          }
        : {}),
    },
    mdocContext,
  );
  const deviceRequest = DeviceRequest.create({
    docRequests: [
      DocRequest.create({
        itemsRequest: ItemsRequest.create({ docType, namespaces: { [docType]: { age_over_18: true } } }),
      }),
    ],
  });
  const response = await Holder.createDeviceResponseForDeviceRequest(
    {
      deviceRequest,
      sessionTranscript,
      issuerSigned: [IssuerSigned.fromEncodedForOid4Vci(credential)],
      signature: { signingKey: CoseKey.fromJwk(key.privateJwk as Record<string, unknown>) },
    },
    mdocContext,
  );
  return response.encodedForOid4Vp;
}

/** An SD-JWT's issuer JWT, decoded payload and decoded disclosures. */
export const sdJwtParts = (credential: string) => {
  const [jwt, ...rest] = credential.split('~');
  const disclosures = rest
    .filter(Boolean)
    .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
  const payload = JSON.parse(Buffer.from((jwt as string).split('.')[1] as string, 'base64url').toString());
  return { jwt: jwt as string, payload, disclosures: disclosures as [string, string, boolean][] };
};

/** Every row of every table, as text: what a database read (or a backup) would hand over. */
export async function databaseText(t: TestApp): Promise<string> {
  const tables = onPostgres
    ? await t.db.read<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
        {},
      )
    : await t.db.read<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'", {});
  let text = '';
  for (const { name } of tables) text += JSON.stringify(await t.db.read(`SELECT * FROM "${name}"`, {}));
  return text;
}
