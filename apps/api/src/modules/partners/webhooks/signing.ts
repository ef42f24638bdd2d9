import { createHmac, randomBytes } from 'node:crypto';
import { deriveKey } from '../../../lib/crypto';
import { openMedia, sealText } from '../../../lib/media-crypto';

/**
 * `Attestly-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` (DESIGN.md §6). Signing the
 * timestamp with the body lets a receiver refuse replays older than its tolerance (the SDK's verifyWebhook: 5 min).
 */
export function signatureHeader(secret: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}

/** A new signing secret: `whsec_` and 32 random bytes (base64url). */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Secrets are sealed with a key of their own (HKDF of the master key) and bound to their endpoint. */
export function webhookSecretKey(masterKey: Buffer): Buffer {
  return deriveKey(masterKey, 'webhook-secret');
}

export function sealSecret(key: Buffer, secret: string, endpointId: string): string {
  return sealText(key, Buffer.from(secret, 'utf8'), `webhook-secret:${endpointId}`, 'base64');
}

export function openSecret(key: Buffer, stored: string, endpointId: string): string {
  const [iv = '', authTag = '', ciphertext = ''] = stored.split('.');
  return openMedia(
    key,
    {
      iv: Buffer.from(iv, 'base64'),
      authTag: Buffer.from(authTag, 'base64'),
      ciphertext: Buffer.from(ciphertext, 'base64'),
    },
    `webhook-secret:${endpointId}`,
  ).toString('utf8');
}
