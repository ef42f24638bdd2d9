import { createHash } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { DeviceResponse, SessionTranscript, Verifier } from '@owf/mdoc';
import type { X509Certificate } from '@peculiar/x509';
import { certificatePublicKey, parseCertificate, verifyChain } from './certificates';
import { mdocContext } from './mdoc-context';

/**
 * Checks one presented credential (issue 24 item 5; OID4VP 1.0 Appendix B): the issuer's chain to a trust anchor,
 * the issuer's signature, validity, the disclosures, the holder's key binding to this transaction, and the value
 * itself. Any failure throws a PresentationRefused whose reason goes to the log only.
 */
export class PresentationRefused extends Error {}

const refuse = (reason: string): never => {
  throw new PresentationRefused(reason);
};

const SKEW_SECONDS = 300;
const ALGS = ['ES256', 'ES384', 'ES512'];
const b64url = (bytes: Buffer) => bytes.toString('base64url');
const sha256 = (text: string) => createHash('sha256').update(text, 'ascii').digest();

export interface Binding {
  /** The full client_id of the request (`redirect_uri:…`): the KB-JWT audience. */
  clientId: string;
  nonce: string;
  responseUri: string;
  /** direct_post.jwt: the verifier key's JWK thumbprint, part of the mdoc session transcript. */
  jwkThumbprint?: Uint8Array;
  now: Date;
}

/** The age claims a credential disclosed, by threshold (e.g. {18: true}). */
export type DisclosedAges = Record<number, boolean>;

/** Disclosed ages must agree with one another: over 21 and not over 18 is no credential anyone should issue. */
export function assertConsistent(ages: DisclosedAges): void {
  const entries = Object.entries(ages).map(([age, value]) => [Number(age), value] as const);
  for (const [older, olderValue] of entries)
    for (const [younger, youngerValue] of entries)
      if (younger < older && olderValue === true && youngerValue !== true)
        refuse(`inconsistent ages: over ${older} but not over ${younger}`);
}

function collectDigests(value: unknown, into: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (
        item &&
        typeof item === 'object' &&
        !Array.isArray(item) &&
        typeof (item as { '...': unknown })['...'] === 'string'
      )
        into.push((item as { '...': string })['...']);
      else collectDigests(item, into);
    }
  } else if (value && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (key === '_sd' && Array.isArray(member))
        into.push(...member.filter((digest) => typeof digest === 'string'));
      else collectDigests(member, into);
    }
  }
}

/** Replaces `_sd` digests with the disclosed members (RFC 9901 §7.1), recursively. */
function unpack(value: unknown, disclosed: Map<string, unknown[]>): unknown {
  if (Array.isArray(value))
    return value
      .filter(
        (item) =>
          !(item && typeof item === 'object' && '...' in item) ||
          disclosed.has((item as { '...': string })['...']),
      )
      .map((item) =>
        item && typeof item === 'object' && '...' in item
          ? unpack((disclosed.get((item as { '...': string })['...']) as unknown[])[1], disclosed)
          : unpack(item, disclosed),
      );
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === '_sd' || key === '_sd_alg') continue;
    out[key] = unpack(member, disclosed);
  }
  for (const digest of ((value as { _sd?: unknown[] })._sd ?? []) as string[]) {
    const disclosure = disclosed.get(digest);
    if (!disclosure) continue;
    if (disclosure.length !== 3 || typeof disclosure[1] !== 'string') refuse('malformed object disclosure');
    const name = disclosure[1] as string;
    if (name in out || name === '_sd' || name === '...') refuse(`claim ${name} disclosed twice or reserved`);
    out[name] = unpack(disclosure[2], disclosed);
  }
  return out;
}

/** SD-JWT VC with a KB-JWT (RFC 9901 §7.1, §7.3; SD-JWT VC §2.4; OID4VP B.3.6). Returns the issuer-asserted claims. */
export async function verifySdJwtPresentation(
  presentation: string,
  options: { anchors: X509Certificate[]; vcts: string[]; binding: Binding },
): Promise<Record<string, unknown>> {
  const { binding } = options;
  const parts = presentation.split('~');
  if (parts.length < 3) refuse('not an SD-JWT with key binding');
  const issuerJwt = parts[0] as string;
  const kbJwt = parts[parts.length - 1] as string;
  const disclosures = parts.slice(1, -1);
  if (!kbJwt) refuse('no key binding JWT');
  const header = decodeProtectedHeader(issuerJwt);
  if (header.typ !== 'dc+sd-jwt' && header.typ !== 'vc+sd-jwt') refuse(`typ ${String(header.typ)}`);
  if (!Array.isArray(header.x5c) || !header.x5c.length) refuse('no x5c');
  const chain = (header.x5c as string[]).map((der) =>
    parseCertificate(new Uint8Array(Buffer.from(der, 'base64'))),
  );
  try {
    await verifyChain(chain, options.anchors, binding.now);
  } catch (error) {
    refuse(`issuer chain: ${(error as Error).message}`);
  }
  let payload: Record<string, unknown> = {};
  try {
    const verified = await compactVerify(issuerJwt, certificatePublicKey(chain[0] as X509Certificate), {
      algorithms: ALGS,
    });
    payload = JSON.parse(Buffer.from(verified.payload).toString('utf8')) as Record<string, unknown>;
  } catch {
    refuse('issuer signature');
  }
  if (typeof payload.vct !== 'string' || !options.vcts.includes(payload.vct))
    refuse(`vct ${String(payload.vct)}`);
  const now = Math.floor(binding.now.getTime() / 1000);
  if (typeof payload.exp !== 'number' || payload.exp <= now - SKEW_SECONDS) refuse('expired credential');
  if (typeof payload.nbf === 'number' && payload.nbf > now + SKEW_SECONDS) refuse('credential not yet valid');
  if (payload._sd_alg !== undefined && payload._sd_alg !== 'sha-256') refuse('digest algorithm');

  const digests: string[] = [];
  collectDigests(payload, digests);
  const disclosed = new Map<string, unknown[]>();
  for (const disclosure of disclosures) {
    const digest = b64url(sha256(disclosure));
    if (!digests.includes(digest)) refuse('a disclosure the issuer did not sign');
    if (disclosed.has(digest)) refuse('a disclosure given twice');
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(disclosure, 'base64url').toString('utf8'));
    } catch {
      refuse('malformed disclosure');
    }
    if (!Array.isArray(decoded) || decoded.length < 2) refuse('malformed disclosure');
    disclosed.set(digest, decoded as unknown[]);
  }
  // Disclosures may sit inside disclosed values: collect their digests too before judging.
  for (const value of disclosed.values()) collectDigests(value, digests);
  const claims = unpack(payload, disclosed) as Record<string, unknown>;

  const cnf = (payload.cnf as { jwk?: JWK } | undefined)?.jwk;
  if (!cnf) refuse('no holder key (cnf.jwk)');
  const kbHeader = decodeProtectedHeader(kbJwt);
  if (kbHeader.typ !== 'kb+jwt') refuse('KB-JWT typ');
  let kb: Record<string, unknown> = {};
  try {
    const verified = await compactVerify(kbJwt, await importJWK(cnf as JWK, kbHeader.alg), {
      algorithms: ALGS,
    });
    kb = JSON.parse(Buffer.from(verified.payload).toString('utf8')) as Record<string, unknown>;
  } catch {
    refuse('KB-JWT signature');
  }
  if (kb.aud !== binding.clientId) refuse('KB-JWT audience');
  if (kb.nonce !== binding.nonce) refuse('KB-JWT nonce');
  if (typeof kb.iat !== 'number' || Math.abs(kb.iat - now) > SKEW_SECONDS) refuse('KB-JWT iat');
  const presented = presentation.slice(0, presentation.length - kbJwt.length);
  if (kb.sd_hash !== b64url(sha256(presented))) refuse('KB-JWT sd_hash');
  return claims;
}

/** ISO mdoc DeviceResponse over OID4VP (OID4VP B.2.6; ISO 18013-5 §9.1.3): returns each namespace's elements. */
export async function verifyMdocPresentation(
  presentation: string,
  options: { anchors: X509Certificate[]; doctypes: string[]; binding: Binding },
): Promise<{ docType: string; elements: Record<string, Record<string, unknown>> }> {
  const { binding } = options;
  let response: DeviceResponse;
  try {
    response = DeviceResponse.fromEncodedForOid4Vp(presentation);
  } catch {
    return refuse('malformed DeviceResponse');
  }
  const documents = response.documents ?? [];
  if (documents.length !== 1) refuse('expected exactly one document');
  const document = documents[0]!;
  if (!options.doctypes.includes(document.docType)) refuse(`docType ${document.docType}`);
  const sessionTranscript = await SessionTranscript.forOid4Vp(
    {
      clientId: binding.clientId,
      nonce: binding.nonce,
      responseUri: binding.responseUri,
      ...(binding.jwkThumbprint ? { jwkThumbprint: binding.jwkThumbprint } : {}),
    },
    mdocContext,
  );
  try {
    await Verifier.verifyDeviceResponse(
      {
        deviceResponse: response,
        sessionTranscript,
        trustedCertificates: options.anchors.map((anchor) => new Uint8Array(anchor.rawData)),
        now: binding.now,
      },
      mdocContext,
    );
  } catch (error) {
    refuse(`mdoc: ${(error as Error).message}`);
  }
  const elements: Record<string, Record<string, unknown>> = {};
  for (const namespace of [document.docType])
    elements[namespace] = (document.issuerSigned.getPrettyClaims(namespace) ?? {}) as Record<string, unknown>;
  return { docType: document.docType, elements };
}
