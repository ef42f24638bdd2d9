import { createPublicKey, hkdfSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactVerify, decodeProtectedHeader, importJWK, SignJWT } from 'jose';
import { Holder, IssuerSigned } from '@owf/mdoc';
import { createApp } from '../src/app';
import { createOidc } from '../src/oidc';
import { deriveKey } from '../src/lib/crypto';
import { mdocContext } from '../src/modules/users/wallet/mdoc-context';
import { parseCertificate, parsePemBundle, verifyChain } from '../src/modules/users/wallet/certificates';
import { createTestApp, signUp, type TestApp } from './helpers';
import {
  createOffer,
  databaseText,
  holderKey,
  offerCode,
  preAuthorizedToken,
  proveAge,
  receiveCredentials,
  sdJwtParts,
} from './wallet-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ withOidc: true });
});
afterAll(async () => {
  await t?.close();
});

async function provenUser(minAge: number, method: 'document' | 'facial_recognition' = 'document') {
  const user = await signUp(t);
  await proveAge(t, user.user.id, { minAge, method });
  return user;
}

async function nonce(): Promise<string> {
  const response = await fetch(`${t.baseUrl}/oauth2/challenge`, { method: 'POST' });
  return ((await response.json()) as { c_nonce: string }).c_nonce;
}

async function proof(options: { nonce: string; aud?: string; key?: Awaited<ReturnType<typeof holderKey>> }) {
  const key = options.key ?? (await holderKey());
  return new SignJWT({ nonce: options.nonce })
    .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: key.publicJwk })
    .setAudience(options.aud ?? `${t.baseUrl}/oauth2`)
    .setIssuedAt()
    .sign(await importJWK(key.privateJwk, 'ES256'));
}

async function credentialRequest(accessToken: string, configuration: string, jwts: string[]) {
  const response = await fetch(`${t.baseUrl}/oauth2/credential`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ credential_configuration_id: configuration, proofs: { jwt: jwts } }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function accessTokenFor(minAge = 20, method: 'document' | 'facial_recognition' = 'document') {
  const user = await provenUser(minAge, method);
  const offer = await createOffer(t, user.token, { same_device: true });
  expect(offer.status, JSON.stringify(offer.body)).toBe(200);
  const answer = await preAuthorizedToken(t.baseUrl, await offerCode(offer.body.offer_url));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { user, accessToken: answer.body.access_token as string };
}

describe('issuing wallet credentials over OpenID4VCI', () => {
  it('hands a document-proven user a batch of both formats through a real wallet client, verifiable against the published root', async () => {
    const user = await provenUser(22);
    const offer = await createOffer(t, user.token);
    expect(offer.status, JSON.stringify(offer.body)).toBe(200);
    expect(offer.body.offer_url).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
    expect(offer.body.qr_svg).toContain('<svg');
    expect(offer.body.tx_code).toMatch(/^\d{6}$/);
    expect(offer.body.age_over).toEqual({ '12': true, '16': true, '18': true, '21': true });

    const { received } = await receiveCredentials(offer.body.offer_url, {
      txCode: offer.body.tx_code,
      count: 3,
    });
    const rootPem = (await t.request.get('/.well-known/attestly/credential-root.pem').expect(200)).text;
    const roots = parsePemBundle(rootPem);

    const sdJwts = received.age_sd_jwt!.credentials;
    expect(sdJwts).toHaveLength(3);
    for (const [index, credential] of sdJwts.entries()) {
      const { jwt, payload, disclosures } = sdJwtParts(credential);
      const header = decodeProtectedHeader(jwt);
      expect(header.typ).toBe('dc+sd-jwt');
      const chain = (header.x5c as string[]).map((der) => parseCertificate(Buffer.from(der, 'base64')));
      expect(chain.some((certificate) => certificate.subject === certificate.issuer)).toBe(false);
      await verifyChain(chain, roots, new Date());
      const leafKey = createPublicKey({
        key: Buffer.from(chain[0]!.publicKey.rawData),
        format: 'der',
        type: 'spki',
      });
      await compactVerify(jwt, leafKey);
      expect(payload.iss).toBe(`${t.baseUrl}/oauth2`);
      expect(payload.cnf.jwk.x).toBe(received.age_sd_jwt!.keys[index]!.publicJwk.x);
      for (const claim of ['sub', 'jti', 'birthdate', 'status']) expect(payload).not.toHaveProperty(claim);
      expect(payload.iat % 86400).toBe(0);
      expect(payload.exp % 86400).toBe(0);
      expect((payload.exp - payload.iat) / 86400).toBe(90);
      expect(payload.age_equal_or_over._sd).toHaveLength(8);
      expect(Object.fromEntries(disclosures.map(([, name, value]) => [name, value]))).toEqual({
        '12': true,
        '16': true,
        '18': true,
        '21': true,
      });
    }

    const mdocs = received.proof_of_age!.credentials;
    expect(mdocs).toHaveLength(3);
    for (const [index, credential] of mdocs.entries()) {
      const issuerSigned = IssuerSigned.fromEncodedForOid4Vci(credential);
      await Holder.verifyIssuerSigned(
        { issuerSigned, trustedCertificates: roots.map((root) => new Uint8Array(root.rawData)) },
        mdocContext,
      );
      expect(issuerSigned.getPrettyClaims('eu.europa.ec.av.1')).toEqual({
        age_over_12: true,
        age_over_16: true,
        age_over_18: true,
        age_over_21: true,
      });
      const mso = issuerSigned.issuerAuth.mobileSecurityObject;
      expect(mso.docType).toBe('eu.europa.ec.av.1');
      expect(mso.deviceKeyInfo.deviceKey.jwk.x).toBe(received.proof_of_age!.keys[index]!.publicJwk.x);
      expect(mso.validityInfo.validFrom.getTime() % 86_400_000).toBe(0);
      expect(mso.validityInfo.validUntil.getTime() % 86_400_000).toBe(0);
    }
  });

  it('makes credentials of one batch, and of two users of different ages, alike in everything but keys and salts', async () => {
    const older = await provenUser(30);
    const younger = await provenUser(18);
    const batch = async (token: string) =>
      (
        await receiveCredentials((await createOffer(t, token, { same_device: true })).body.offer_url, {
          configurations: ['age_sd_jwt'],
        })
      ).received.age_sd_jwt!.credentials.map(sdJwtParts);
    const [first, second] = await batch(older.token);
    const [other] = await batch(younger.token);
    for (const candidate of [second!, other!]) {
      const { cnf: _a, age_equal_or_over: aClaims, ...aRest } = first!.payload;
      const { cnf: _b, age_equal_or_over: bClaims, ...bRest } = candidate.payload;
      expect(bRest).toEqual(aRest);
      expect(bClaims._sd).toHaveLength(aClaims._sd.length);
      expect(bClaims._sd.filter((digest: string) => aClaims._sd.includes(digest))).toEqual([]);
      expect(decodeProtectedHeader(candidate.jwt)).toEqual(decodeProtectedHeader(first!.jwt));
      const salts = new Set(first!.disclosures.map(([salt]) => salt));
      expect(candidate.disclosures.filter(([salt]) => salts.has(salt))).toEqual([]);
    }
    // Younger: over 18 but not 21, stated as false rather than left out.
    expect(Object.fromEntries(other!.disclosures.map(([, name, value]) => [name, value]))).toEqual({
      '12': true,
      '16': true,
      '18': true,
      '21': false,
    });
  });

  it('makes two mdocs of one batch share nothing but issuer, doctype, claims and day: fresh randoms, digests and keys', async () => {
    const user = await provenUser(19);
    const offer = await createOffer(t, user.token, { same_device: true });
    const { received } = await receiveCredentials(offer.body.offer_url, { configurations: ['proof_of_age'] });
    const [first, second] = received.proof_of_age!.credentials.map((credential) =>
      IssuerSigned.fromEncodedForOid4Vci(credential),
    );
    const msoOf = (signed: IssuerSigned) => signed.issuerAuth.mobileSecurityObject;
    const digests = (signed: IssuerSigned) =>
      [...(msoOf(signed).valueDigests.valueDigests.get('eu.europa.ec.av.1')?.values() ?? [])].map((digest) =>
        Buffer.from(digest).toString('hex'),
      );
    const randoms = (signed: IssuerSigned) =>
      (signed.getIssuerNamespace('eu.europa.ec.av.1') ?? []).map((item) =>
        Buffer.from(item.random).toString('hex'),
      );
    expect(digests(first!)).toHaveLength(4);
    expect(digests(second!).filter((digest) => digests(first!).includes(digest))).toEqual([]);
    expect(randoms(second!).filter((random) => randoms(first!).includes(random))).toEqual([]);
    expect(msoOf(second!).deviceKeyInfo.deviceKey.jwk.x).not.toBe(
      msoOf(first!).deviceKeyInfo.deviceKey.jwk.x,
    );
    expect(msoOf(second!).validityInfo.signed).toEqual(msoOf(first!).validityInfo.signed);
    expect(msoOf(second!).validityInfo.validUntil).toEqual(msoOf(first!).validityInfo.validUntil);
    expect(second!.getPrettyClaims('eu.europa.ec.av.1')).toEqual({
      age_over_12: true,
      age_over_16: true,
      age_over_18: true,
      age_over_21: false,
    });
  });

  it('keeps no credential material in the database and audits only the count, configuration, user and day', async () => {
    const user = await provenUser(25);
    const offer = await createOffer(t, user.token, { same_device: true });
    const { received } = await receiveCredentials(offer.body.offer_url, { count: 2 });
    const text = await databaseText(t);
    for (const credential of received.age_sd_jwt!.credentials) {
      const { jwt, disclosures, payload } = sdJwtParts(credential);
      expect(text).not.toContain(jwt.split('.')[2]);
      expect(text).not.toContain(payload.cnf.jwk.x);
      for (const [salt] of disclosures) expect(text).not.toContain(salt);
    }
    for (const key of received.proof_of_age!.keys) expect(text).not.toContain(key.publicJwk.x);
    const rows = await t.db.read<{ details: string | object; user_id: string }>(
      "SELECT details, user_id FROM audit_logs WHERE event_type = 'wallet.credentials_issued' AND user_id = :id",
      { id: user.user.id },
    );
    const details = rows.map((row) =>
      typeof row.details === 'string' ? JSON.parse(row.details) : row.details,
    );
    expect(details.map((entry) => entry.configuration).sort()).toEqual(['age_sd_jwt', 'proof_of_age']);
    for (const entry of details) {
      expect(entry).toEqual({
        count: 2,
        configuration: entry.configuration,
        day: t.clock.now().toISOString().slice(0, 10),
        backed_by: 'document',
      });
    }
  });

  it('serves the issuer metadata at both well-known forms and the type metadata at the vct', async () => {
    const inserted = await t.request.get('/.well-known/openid-credential-issuer/oauth2').expect(200);
    const appended = await t.request.get('/oauth2/.well-known/openid-credential-issuer').expect(200);
    expect(inserted.body).toEqual(appended.body);
    expect(inserted.body.batch_credential_issuance).toEqual({ batch_size: 30 });
    expect(Object.keys(inserted.body.credential_configurations_supported).sort()).toEqual([
      'age_sd_jwt',
      'proof_of_age',
    ]);
    const as = await t.request.get('/.well-known/oauth-authorization-server/oauth2').expect(200);
    expect(as.body['pre-authorized_grant_anonymous_access_supported']).toBe(true);
    const vct = inserted.body.credential_configurations_supported.age_sd_jwt.vct as string;
    await t.request.get(new URL(vct).pathname).expect(200);
  });
});

describe('refusals at the token and credential endpoints', () => {
  it('redeems a pre-authorized code once', async () => {
    const user = await provenUser(20);
    const code = await offerCode((await createOffer(t, user.token, { same_device: true })).body.offer_url);
    expect((await preAuthorizedToken(t.baseUrl, code)).status).toBe(200);
    const again = await preAuthorizedToken(t.baseUrl, code);
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('redeems a code raced on two replicas of one database at most once, and the replay revokes what it gave', async () => {
    const replica = await createOidc(t.deps, { keyCheckIntervalMs: 0 });
    const { app } = createApp(t.deps, { oidc: replica });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    try {
      const other = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      for (let round = 0; round < 3; round++) {
        const user = await provenUser(20);
        const code = await offerCode(
          (await createOffer(t, user.token, { same_device: true })).body.offer_url,
        );
        const answers = await Promise.all([
          preAuthorizedToken(t.baseUrl, code),
          preAuthorizedToken(other, code),
          preAuthorizedToken(t.baseUrl, code),
          preAuthorizedToken(other, code),
        ]);
        // A code presented twice is a replay (RFC 6749 §4.1.2): the losers revoke the grant before they answer. The
        // winner may have loaded the grant before that (200) or after it (invalid_grant, too), so at most one 200,
        // and whatever it got opens nothing once the race is over.
        const won = answers.filter((answer) => answer.status === 200);
        expect(won.length, JSON.stringify(answers)).toBeLessThanOrEqual(1);
        for (const answer of answers.filter((each) => each.status !== 200))
          expect(answer.body.error).toBe('invalid_grant');
        for (const winner of won) {
          const refused = await credentialRequest(winner.body.access_token as string, 'proof_of_age', [
            await proof({ nonce: await nonce() }),
          ]);
          expect(refused.status, JSON.stringify(refused.body)).toBe(401);
        }
      }
    } finally {
      replica.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses a wrong transaction code and then the code itself', async () => {
    const user = await provenUser(20);
    const offer = await createOffer(t, user.token);
    const code = await offerCode(offer.body.offer_url);
    const wrong = String((Number(offer.body.tx_code) + 1) % 1_000_000).padStart(6, '0');
    expect(await preAuthorizedToken(t.baseUrl, code, wrong)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await preAuthorizedToken(t.baseUrl, code, offer.body.tx_code)).status).toBe(400);
    expect((await preAuthorizedToken(t.baseUrl, code)).status).toBe(400);
  });

  it('refuses a stale nonce, a nonce of another issuer, and a proof for another audience', async () => {
    const { accessToken } = await accessTokenFor();
    const secret = deriveKey(t.config.masterKey, 'openid4vci-c-nonce');
    const step = Math.floor(Date.now() / 60_000) - 10;
    const stepBytes = Buffer.alloc(8);
    stepBytes.writeBigUInt64BE(BigInt(step));
    const stale = Buffer.from(hkdfSync('sha256', secret, stepBytes, 'OpenID4VCI c_nonce', 32)).toString(
      'base64url',
    );
    const foreignStep = Buffer.alloc(8);
    foreignStep.writeBigUInt64BE(BigInt(step + 10));
    const foreign = Buffer.from(
      hkdfSync('sha256', Buffer.alloc(32, 7), foreignStep, 'OpenID4VCI c_nonce', 32),
    ).toString('base64url');
    for (const value of [stale, foreign]) {
      const answer = await credentialRequest(accessToken, 'age_sd_jwt', [await proof({ nonce: value })]);
      expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_nonce' } });
    }
    const wrongAudience = await credentialRequest(accessToken, 'age_sd_jwt', [
      await proof({ nonce: await nonce(), aud: 'https://elsewhere.example/oauth2' }),
    ]);
    expect(wrongAudience).toMatchObject({ status: 400, body: { error: 'invalid_proof' } });
    const fresh = await credentialRequest(accessToken, 'age_sd_jwt', [await proof({ nonce: await nonce() })]);
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
  });

  it('issues a batch of 30 and refuses 31, and refuses one key used twice', async () => {
    const { accessToken } = await accessTokenFor();
    const value = await nonce();
    const thirty = await Promise.all(Array.from({ length: 30 }, () => proof({ nonce: value })));
    const ok = await credentialRequest(accessToken, 'proof_of_age', thirty);
    expect(ok.status).toBe(200);
    expect(ok.body.credentials).toHaveLength(30);
    const over = await credentialRequest(accessToken, 'proof_of_age', [
      ...thirty,
      await proof({ nonce: value }),
    ]);
    expect(over).toMatchObject({ status: 400, body: { error: 'invalid_proof' } });
    const key = await holderKey();
    const twice = await credentialRequest(accessToken, 'age_sd_jwt', [
      await proof({ nonce: value, key }),
      await proof({ nonce: value, key }),
    ]);
    expect(twice).toMatchObject({ status: 400, body: { error: 'invalid_proof' } });
  });

  it('refuses credentials once the age proof behind them has lapsed', async () => {
    const { accessToken } = await accessTokenFor();
    t.clock.advance(366 * 86_400_000);
    try {
      const answer = await credentialRequest(accessToken, 'age_sd_jwt', [
        await proof({ nonce: await nonce() }),
      ]);
      expect(answer).toMatchObject({ status: 400, body: { error: 'credential_request_denied' } });
    } finally {
      t.clock.advance(-366 * 86_400_000);
    }
  });

  it('refuses an offer, with the reason, to a user proven only by face estimation, and to an unproven user', async () => {
    const face = await provenUser(30, 'facial_recognition');
    const refused = await createOffer(t, face.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('wallet.method_not_accepted');
    expect(refused.body.detail).toContain('face age estimation');
    const unproven = await signUp(t);
    const none = await createOffer(t, unproven.token);
    expect(none.status).toBe(403);
    expect(none.body.code).toBe('wallet.no_age_proof');
    await t.request.post('/api/v1/wallet/offers').send({}).expect(401);
  });

  it('bases the credential on the accepted proof only: 25 by face and 18 by document gives over-18, not over-21', async () => {
    const user = await signUp(t);
    await proveAge(t, user.user.id, { minAge: 18, method: 'document' });
    await proveAge(t, user.user.id, { minAge: 25, method: 'facial_recognition' });
    const offer = await createOffer(t, user.token, { same_device: true });
    expect(offer.body.age_over).toEqual({ '12': true, '16': true, '18': true, '21': false });
  });
});
