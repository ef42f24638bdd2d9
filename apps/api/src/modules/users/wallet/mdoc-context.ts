import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify } from 'node:crypto';
import { CoseKey, type MdocContext } from '@owf/mdoc';
import { certificatePublicKey, certificateThumbprint, parseCertificate, verifyChain } from './certificates';

/**
 * The crypto @owf/mdoc asks for (ISO 18013-5 COSE_Sign1 with ES256, SHA-256 digests, X.509 chains), on node:crypto
 * and @peculiar/x509. MAC-based device authentication (ECDH session keys) is not offered: presentations to Attestly
 * are over OpenID4VP, where the device signs.
 */
const DIGESTS = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' } as const;

const privateKeyOf = (key: CoseKey) => createPrivateKey({ key: key.jwk as never, format: 'jwk' });
const publicKeyOf = (key: CoseKey) => {
  const { d: _d, ...rest } = key.jwk;
  return createPublicKey({ key: rest as never, format: 'jwk' });
};

export const mdocContext: MdocContext = {
  crypto: {
    random: (length) => new Uint8Array(randomBytes(length)),
    digest: ({ digestAlgorithm, bytes }) =>
      new Uint8Array(createHash(DIGESTS[digestAlgorithm]).update(bytes).digest()),
    calculateEphemeralMacKey: () => {
      throw new Error('MAC device authentication is not supported');
    },
  },
  cose: {
    sign1: {
      sign: ({ toBeSigned, key }) =>
        new Uint8Array(sign('sha256', toBeSigned, { key: privateKeyOf(key), dsaEncoding: 'ieee-p1363' })),
      verify: ({ key, sign1 }) =>
        verify(
          'sha256',
          sign1.toBeSigned,
          { key: publicKeyOf(key), dsaEncoding: 'ieee-p1363' },
          sign1.signature,
        ),
    },
    mac0: {
      sign: () => {
        throw new Error('MAC device authentication is not supported');
      },
      verify: () => false,
    },
  },
  x509: {
    getIssuerNameField: ({ certificate, field }) => parseCertificate(certificate).issuerName.getField(field),
    getPublicKey: ({ certificate }) =>
      CoseKey.fromJwk(
        certificatePublicKey(parseCertificate(certificate)).export({ format: 'jwk' }) as Record<
          string,
          unknown
        >,
      ),
    verifyCertificateChain: async ({ trustedCertificates, x5chain, now }) => {
      await verifyChain(
        x5chain.map(parseCertificate),
        trustedCertificates.map(parseCertificate),
        now ?? new Date(),
      );
    },
    getCertificateData: async ({ certificate }) => {
      const parsed = parseCertificate(certificate);
      return {
        issuerName: parsed.issuer,
        subjectName: parsed.subject,
        serialNumber: parsed.serialNumber,
        thumbprint: await certificateThumbprint(parsed),
        notBefore: parsed.notBefore,
        notAfter: parsed.notAfter,
        pem: parsed.toString('pem'),
      };
    },
  },
};
