import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from '../../../lib/crypto';

/**
 * Private keys of the credential issuer at rest (key-store.ts): AES-256-GCM under an HKDF key from the master key,
 * in a key set of its own, with the row id as associated data so that swapping rows around fails to decrypt.
 * Stored as base64url(iv).base64url(tag).base64url(ciphertext), like the OIDC signing keys (oidc/keys.ts).
 */
const sealingKey = (masterKey: Buffer) => deriveKey(masterKey, 'wallet-credential-keys');

export function sealKey(masterKey: Buffer, id: string, secret: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(masterKey), iv);
  cipher.setAAD(Buffer.from(id));
  const body = Buffer.concat([cipher.update(secret), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

export function unsealKey(masterKey: Buffer, id: string, sealed: string): Buffer {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) throw new Error(`wallet key ${id} is malformed`);
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(masterKey), iv);
  decipher.setAAD(Buffer.from(id));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new Error(`wallet key ${id} cannot be decrypted: is this the master key it was created with?`);
  }
}
