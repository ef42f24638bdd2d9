import { randomInt } from 'node:crypto';
import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';
import QRCode from 'qrcode';
import { TOTP } from '@attestly/contracts';
import { deriveKey, hmacSha256 } from '../../../lib/crypto';
import { openMedia, sealedParts, sealText } from '../../../lib/media-crypto';

/**
 * TOTP for administrators (RFC 6238: HMAC-SHA-1, 30-second steps, 6 digits). A code is accepted for the current
 * step and one step either side (clock drift), and never for a step at or before the last one accepted: the
 * caller records the step with a conditional UPDATE, so a replayed code fails even when two requests race.
 */
/** What TOTP setup hands out, once: the secret, its otpauth:// URI and QR code, and the backup codes. */
export interface TotpSetup {
  secret: string;
  otpauth_url: string;
  qr_code_data_uri: string;
  backup_codes: string[];
}

export const TOTP_TOLERANCE_SECONDS = TOTP.periodSeconds * TOTP.window;

export function newTotpSecret(): string {
  // 20 random bytes = 160 bits, the HMAC-SHA-1 key length RFC 4226 §4 recommends.
  return generateSecret({ length: 20 });
}

export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP.periodSeconds);
}

/** The code for `now` (tests and the CLI's self-check use it; the server never shows codes). */
export function totpCode(secret: string, now: Date): string {
  return generateSync({ secret, epoch: Math.floor(now.getTime() / 1000) });
}

/** The time step a code belongs to, if it is valid around `now` and newer than `afterStep`; else null. */
export function matchTotp(secret: string, code: string, now: Date, afterStep: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const result = verifySync({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(afterStep > 0 ? { afterTimeStep: afterStep } : {}),
  });
  // A TOTP result carries the step it matched (otplib's union type also covers HOTP, which has none).
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

export function otpauthUrl(email: string, secret: string): string {
  return generateURI({ issuer: TOTP.issuer, label: email, secret });
}

/** A PNG data URI of the otpauth:// URI, for the setup screen. */
export function qrCodeDataUri(uri: string): Promise<string> {
  return QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240, type: 'image/png' });
}

/** The TOTP secret is kept encrypted under its own HKDF key of the master key, bound to the admin's id. */
export function totpKey(masterKey: Buffer): Buffer {
  return deriveKey(masterKey, 'admin-totp');
}

export function sealSecret(key: Buffer, adminId: string, secret: string): string {
  return sealText(key, Buffer.from(secret, 'utf8'), `admin-totp:${adminId}`);
}

export function openSecret(key: Buffer, adminId: string, stored: string): string {
  const sealed = sealedParts(stored);
  if (!sealed) throw new Error('malformed TOTP secret');
  return openMedia(key, sealed, `admin-totp:${adminId}`).toString('utf8');
}

/** Backup codes: 10 characters from an alphabet without look-alikes (no 0/o, 1/l/i), shown as `xxxxx-xxxxx`. */
const BACKUP_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function newBackupCodes(count: number = TOTP.backupCodes): string[] {
  return Array.from({ length: count }, () => {
    let code = '';
    for (let i = 0; i < 10; i++) code += BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

export function normaliseBackupCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Keyed hash of a backup code (HMAC under its own derived key), so a database leak yields no usable code. */
export function backupCodeHasher(masterKey: Buffer): (code: string) => string {
  const key = deriveKey(masterKey, 'admin-backup-codes');
  return (code) => hmacSha256(key, normaliseBackupCode(code));
}
