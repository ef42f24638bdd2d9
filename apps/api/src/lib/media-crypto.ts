import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from './crypto';

/** The media key: HKDF of the master key for this one purpose (DESIGN.md §2), so it never encrypts anything else. */
export function mediaKey(masterKey: Buffer): Buffer {
  return deriveKey(masterKey, 'media');
}

export interface SealedMedia {
  iv: Buffer;
  authTag: Buffer;
  ciphertext: Buffer;
}

/**
 * AES-256-GCM with a random 96-bit nonce (NIST SP 800-38D §8.2.2). `context` is bound as associated data, so a
 * ciphertext copied onto another row (another verification) fails to open instead of showing the wrong person.
 */
export function sealMedia(key: Buffer, plaintext: Uint8Array, context: string): SealedMedia {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, authTag: cipher.getAuthTag(), ciphertext };
}

/** Opens sealed media; throws if the key, the context or any byte differs. */
export function openMedia(key: Buffer, sealed: SealedMedia, context: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(sealed.authTag);
  return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
}
