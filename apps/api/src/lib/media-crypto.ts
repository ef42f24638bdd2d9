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

/**
 * A secret sealed into one text column (`iv.tag.ciphertext`, each part base64url; the webhook secrets' column was
 * written in base64 and stays so): TOTP secrets, webhook signing secrets, OIDC signing keys and wallet keys.
 */
export function sealText(
  key: Buffer,
  plaintext: Uint8Array,
  context: string,
  encoding: 'base64url' | 'base64' = 'base64url',
): string {
  const sealed = sealMedia(key, plaintext, context);
  return [sealed.iv, sealed.authTag, sealed.ciphertext].map((part) => part.toString(encoding)).join('.');
}

/** The three parts of a `sealText` column, or null when it has fewer. */
export function sealedParts(stored: string): SealedMedia | null {
  const [iv, authTag, ciphertext] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
  return iv && authTag && ciphertext ? { iv, authTag, ciphertext } : null;
}

/**
 * Opens a `sealText` column holding `what` (e.g. "signing key <kid>"): an error names it when the column is not
 * three parts, or does not open (another master key, another row's context, a changed byte).
 */
export function openText(key: Buffer, stored: string, context: string, what: string): Buffer {
  const sealed = sealedParts(stored);
  if (!sealed) throw new Error(`${what} is malformed`);
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(sealed.authTag);
  try {
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  } catch {
    throw new Error(`${what} cannot be decrypted: is this the master key it was created with?`);
  }
}
