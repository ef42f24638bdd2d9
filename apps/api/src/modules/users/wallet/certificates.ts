import 'reflect-metadata';
// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata API loaded first.
import { createPrivateKey, createPublicKey, webcrypto, type KeyObject } from 'node:crypto';
import * as x509 from '@peculiar/x509';

/**
 * Certificates of the credential issuer (issue 24 item 4; research §5.4): a self-signed P-256 root that partners pin,
 * and a document-signer leaf that signs credentials. Built and read with @peculiar/x509 on Node's WebCrypto; the
 * signing itself uses node:crypto key objects.
 */
const crypto = webcrypto as unknown as Crypto;
x509.cryptoProvider.set(crypto);

const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
/** ISO 18013-5 Annex B: the extended key usage of an mdoc document signer. */
export const MDOC_DS_EKU = '1.0.18013.5.1.2';

const DAY_MS = 86_400_000;

export interface IssuedCertificate {
  /** PEM of the certificate. */
  pem: string;
  /** PKCS#8 DER of its private key. */
  privateKey: Buffer;
  notBefore: Date;
  notAfter: Date;
}

async function newKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

async function pkcs8(key: CryptoKey): Promise<Buffer> {
  return Buffer.from(await crypto.subtle.exportKey('pkcs8', key));
}

/** A new certificate as it is kept: PEM, with its private key as PKCS #8. */
async function issued(
  certificate: x509.X509Certificate,
  keys: CryptoKeyPair,
  notBefore: Date,
  notAfter: Date,
): Promise<IssuedCertificate> {
  return { pem: certificate.toString('pem'), privateKey: await pkcs8(keys.privateKey), notBefore, notAfter };
}

/** Certificates start a day early: a verifier whose clock runs behind must not see a credential "not yet valid". */
const startOfDay = (time: Date) => new Date(Math.floor(time.getTime() / DAY_MS) * DAY_MS - DAY_MS);

/** The self-signed credential root: CA, no intermediates below it (pathLen 0), long-lived. */
export async function createRootCertificate(options: {
  name: string;
  country: string;
  now: Date;
  years: number;
}) {
  const keys = await newKeyPair();
  const notBefore = startOfDay(options.now);
  const notAfter = new Date(notBefore.getTime() + options.years * 365 * DAY_MS);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${options.name}, O=Attestly, C=${options.country}`,
    keys,
    notBefore,
    notAfter,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return issued(certificate, keys, notBefore, notAfter);
}

/**
 * A document-signer certificate under `root`: it signs for `signingDays`, and stays valid for the longest credential
 * it may have signed on its last day (`credentialDays`). Its SAN URI is the credential issuer (OID4VCI §14.4).
 */
export async function createSignerCertificate(options: {
  root: { pem: string; privateKey: Buffer };
  issuer: string;
  country: string;
  now: Date;
  signingDays: number;
  credentialDays: number;
}) {
  const rootCertificate = new x509.X509Certificate(options.root.pem);
  const rootKey = await crypto.subtle.importKey(
    'pkcs8',
    new Uint8Array(options.root.privateKey),
    EC_KEY,
    false,
    ['sign'],
  );
  const keys = await newKeyPair();
  const notBefore = startOfDay(options.now);
  const notAfter = new Date(
    notBefore.getTime() + (options.signingDays + options.credentialDays + 2) * DAY_MS,
  );
  const certificate = await x509.X509CertificateGenerator.create({
    subject: `CN=Attestly Document Signer ${options.now.toISOString().slice(0, 10)}, O=Attestly, C=${options.country}`,
    issuer: rootCertificate.subject,
    publicKey: keys.publicKey,
    signingKey: rootKey,
    notBefore,
    notAfter,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([MDOC_DS_EKU], true),
      new x509.SubjectAlternativeNameExtension([{ type: 'url', value: options.issuer }]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(rootCertificate),
    ],
  });
  return issued(certificate, keys, notBefore, notAfter);
}

export const parseCertificate = (input: string | Uint8Array) =>
  new x509.X509Certificate(typeof input === 'string' ? input : new Uint8Array(input));

/** Every certificate in a PEM bundle, in order. */
export function parsePemBundle(text: string): x509.X509Certificate[] {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new x509.X509Certificate(block));
}

export const certificateDer = (pem: string) => new Uint8Array(new x509.X509Certificate(pem).rawData);

export function isCertificateAuthority(certificate: x509.X509Certificate): boolean {
  const constraints = certificate.getExtension(x509.BasicConstraintsExtension);
  return !!constraints?.ca;
}

export async function certificateThumbprint(certificate: x509.X509Certificate): Promise<string> {
  return Buffer.from(await certificate.getThumbprint('SHA-256', crypto)).toString('hex');
}

/** A PKCS#8 private key as a node:crypto key object (signing). */
export const privateKeyObject = (der: Buffer): KeyObject =>
  createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });

/** The public key of a certificate as a node:crypto key object (verifying). */
export function certificatePublicKey(certificate: x509.X509Certificate): KeyObject {
  return createPublicKey({ key: Buffer.from(certificate.publicKey.rawData), format: 'der', type: 'spki' });
}

/** Does the private key belong to the certificate? (Import refuses a mismatched pair.) */
export function keyMatchesCertificate(privateKey: KeyObject, certificate: x509.X509Certificate): boolean {
  const fromKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const fromCertificate = certificatePublicKey(certificate).export({ format: 'der', type: 'spki' });
  return Buffer.compare(fromKey, fromCertificate) === 0;
}

/**
 * Checks that `chain` (leaf first, as in `x5c` and `x5chain`) leads to one of `anchors`: every certificate signed by
 * the next one (or by an anchor), every certificate valid at `now`, intermediates and anchors being CAs. The anchor
 * itself may be left out of the chain (HAIP §6.1.1 wants it left out). Throws with the reason otherwise.
 */
export async function verifyChain(
  chain: x509.X509Certificate[],
  anchors: x509.X509Certificate[],
  now: Date,
): Promise<x509.X509Certificate> {
  const [leaf] = chain;
  if (!leaf) throw new Error('empty certificate chain');
  if (chain.length > 5) throw new Error('certificate chain too long');
  const valid = (certificate: x509.X509Certificate) =>
    certificate.notBefore.getTime() <= now.getTime() && now.getTime() <= certificate.notAfter.getTime();
  let current = leaf;
  for (let depth = 0; depth < chain.length; depth++) {
    if (!valid(current))
      throw new Error(`certificate ${current.subject} is not valid at ${now.toISOString()}`);
    for (const anchor of anchors) {
      if (anchor.subject !== current.issuer || !isCertificateAuthority(anchor) || !valid(anchor)) continue;
      if (await current.verify({ publicKey: anchor.publicKey, signatureOnly: true }, crypto)) return anchor;
    }
    const next = chain[depth + 1];
    if (!next) break;
    if (next.subject !== current.issuer || !isCertificateAuthority(next))
      throw new Error('certificate chain is out of order');
    if (!(await current.verify({ publicKey: next.publicKey, signatureOnly: true }, crypto)))
      throw new Error('certificate signature does not verify');
    current = next;
  }
  throw new Error('certificate chain does not lead to a trusted anchor');
}
