import { createHash, randomBytes, sign, type JsonWebKey } from 'node:crypto';
import { CoseKey, DeviceKey, Issuer, SignatureAlgorithm } from '@owf/mdoc';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { AGE_THRESHOLDS } from '@attestly/contracts';
import type { DocumentSigner } from './key-store';
import { mdocContext } from './mdoc-context';

/**
 * The two credential formats (issue 24 item 1), with age claims only: every threshold the product knows is present,
 * true or false and monotonic, so a credential never reveals an age band by what is missing; no birth date, no
 * subject, no identifier; issue and validity times at midnight UTC.
 */

/** EU age-verification profile (AV annex A): the mdoc doctype and namespace, offered as `proof_of_age`. */
export const AV_DOCTYPE = 'eu.europa.ec.av.1';
export const MDOC_CONFIGURATION = 'proof_of_age';
/** SD-JWT VC with the PID rulebook's `age_equal_or_over` encoding. */
export const SD_JWT_CONFIGURATION = 'age_sd_jwt';
export const CREDENTIAL_CONFIGURATIONS = [MDOC_CONFIGURATION, SD_JWT_CONFIGURATION] as const;
export type CredentialConfigurationId = (typeof CREDENTIAL_CONFIGURATIONS)[number];

/** `_sd` of `age_equal_or_over` is padded with decoys to this many digests (RFC 9901 §4.2.5). */
export const SD_DIGESTS = 8;

export const credentialVct = (issuer: string) => `${issuer}/credentials/age/1`;

export type AgeFacts = Record<number, boolean>;

/** Every threshold, true where the proven minimum age reaches it: over 21 implies over 18. */
export function ageFacts(provenMinAge: number): AgeFacts {
  return Object.fromEntries(AGE_THRESHOLDS.map((threshold) => [threshold, provenMinAge >= threshold]));
}

const DAY_MS = 86_400_000;

/** The last day (YYYY-MM-DD) credentials issued now would be valid: the configured days, never past the proof. */
export function credentialsValidUntil(now: Date, credentialDays: number, proofUntil: Date): string {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const lastDay = Math.min(
    today + credentialDays * DAY_MS,
    Math.floor(proofUntil.getTime() / DAY_MS) * DAY_MS,
  );
  return new Date(lastDay - DAY_MS).toISOString().slice(0, 10);
}

export interface CredentialInput {
  issuer: string;
  facts: AgeFacts;
  /** 00:00:00Z of the issuing day. */
  issuedDay: Date;
  /** 00:00:00Z of the last day (exclusive end of validity). */
  expiresDay: Date;
  /** The wallet key this credential is bound to (the proof's header `jwk`). */
  holderKey: JsonWebKey;
  signer: DocumentSigner;
}

const seconds = (time: Date) => Math.floor(time.getTime() / 1000);
const publicJwk = ({ kty, crv, x, y, n, e }: JsonWebKey) =>
  Object.fromEntries(Object.entries({ kty, crv, x, y, n, e }).filter(([, value]) => value !== undefined));

/** An SD-JWT VC (`dc+sd-jwt`) with each `age_equal_or_over` member selectively disclosable. */
export async function issueSdJwt(input: CredentialInput): Promise<string> {
  const sdJwt = new SDJwtVcInstance({
    hasher: (data: string | ArrayBuffer) =>
      new Uint8Array(
        createHash('sha256')
          .update(typeof data === 'string' ? data : Buffer.from(data))
          .digest(),
      ),
    hashAlg: 'sha-256',
    saltGenerator: () => randomBytes(16).toString('base64url'),
    signAlg: 'ES256',
    signer: (data: string) =>
      sign('sha256', Buffer.from(data), { key: input.signer.privateKey, dsaEncoding: 'ieee-p1363' }).toString(
        'base64url',
      ),
  });
  const claims = Object.fromEntries(Object.entries(input.facts).map(([age, value]) => [String(age), value]));
  const members = Object.keys(claims);
  return sdJwt.issue(
    {
      iss: input.issuer,
      iat: seconds(input.issuedDay),
      nbf: seconds(input.issuedDay),
      exp: seconds(input.expiresDay),
      vct: credentialVct(input.issuer),
      cnf: { jwk: publicJwk(input.holderKey) },
      age_equal_or_over: claims,
    },
    { age_equal_or_over: { _sd: members, _sd_decoy: Math.max(0, SD_DIGESTS - members.length) } } as never,
    { header: { x5c: input.signer.chain.map((der) => Buffer.from(der).toString('base64')) } },
  );
}

/** An ISO mdoc `eu.europa.ec.av.1` with `age_over_NN` elements, as base64url IssuerSigned (OID4VCI A.2). */
export async function issueMdoc(input: CredentialInput): Promise<string> {
  const issuer = new Issuer(AV_DOCTYPE, mdocContext);
  issuer.addIssuerNamespace(
    AV_DOCTYPE,
    Object.fromEntries(Object.entries(input.facts).map(([age, value]) => [`age_over_${age}`, value])),
  );
  const signed = await issuer.sign({
    signingKey: CoseKey.fromJwk(input.signer.privateKey.export({ format: 'jwk' }) as Record<string, unknown>),
    certificates: input.signer.chain,
    algorithm: SignatureAlgorithm.ES256,
    digestAlgorithm: 'SHA-256',
    deviceKeyInfo: { deviceKey: DeviceKey.fromJwk(publicJwk(input.holderKey)) },
    validityInfo: { signed: input.issuedDay, validFrom: input.issuedDay, validUntil: input.expiresDay },
  });
  return signed.encodedForOid4Vci;
}

export function issueCredentialOf(configuration: CredentialConfigurationId, input: CredentialInput) {
  return configuration === MDOC_CONFIGURATION ? issueMdoc(input) : issueSdJwt(input);
}
