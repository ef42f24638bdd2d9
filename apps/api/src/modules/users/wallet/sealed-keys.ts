import { deriveKey } from '../../../lib/crypto';
import { openText, sealText } from '../../../lib/media-crypto';

/**
 * Private keys of the credential issuer at rest (key-store.ts): AES-256-GCM under an HKDF key from the master key,
 * in a key set of its own, with the row id as associated data so that swapping rows around fails to decrypt.
 * Stored as base64url(iv).base64url(tag).base64url(ciphertext), like the OIDC signing keys (oidc/keys.ts).
 */
const sealingKey = (masterKey: Buffer) => deriveKey(masterKey, 'wallet-credential-keys');

export function sealKey(masterKey: Buffer, id: string, secret: Buffer): string {
  return sealText(sealingKey(masterKey), secret, id);
}

export function unsealKey(masterKey: Buffer, id: string, sealed: string): Buffer {
  return openText(sealingKey(masterKey), sealed, id, `wallet key ${id}`);
}
