import * as v from 'valibot';
import { currentPassword, email, requiredText } from '../fields';
import { ADMIN_MESSAGES } from './constants';

/** Administrator sign-in (spec 02 §4, §5, §7). */

const totpCode = (missing: string) =>
  v.pipe(requiredText(missing, 20), v.regex(/^\d{6}$/, ADMIN_MESSAGES.codeSixDigits));

/** A backup code as shown: 10 characters in two groups (`abcde-fghij`); case and the dash are optional. */
export const BACKUP_CODE_PATTERN = /^[a-z2-9]{5}-?[a-z2-9]{5}$/i;

export const adminLoginBody = v.object({
  email,
  password: currentPassword(ADMIN_MESSAGES.passwordRequired),
});
export type AdminLoginBody = v.InferInput<typeof adminLoginBody>;

/** `code` is the 6-digit TOTP code, or one of the backup codes. */
export const adminVerify2faBody = v.object({
  temp_token: requiredText('temp_token is required', 200),
  code: v.pipe(
    requiredText(ADMIN_MESSAGES.codeRequired, 20),
    v.check(
      (value) => /^\d{6}$/.test(value) || BACKUP_CODE_PATTERN.test(value),
      ADMIN_MESSAGES.codeSixDigits,
    ),
  ),
});
export type AdminVerify2faBody = v.InferInput<typeof adminVerify2faBody>;

/** The login screen's code step (the screen knows only TOTP codes). */
export const adminCodeForm = v.object({ code: totpCode(ADMIN_MESSAGES.codeRequired) });

export const adminSetup2faBody = v.object({
  password: currentPassword(ADMIN_MESSAGES.currentPasswordRequired),
});
export type AdminSetup2faBody = v.InferInput<typeof adminSetup2faBody>;

export const adminEnable2faBody = v.object({
  totp_code: totpCode(ADMIN_MESSAGES.verificationCodeRequired),
});
export type AdminEnable2faBody = v.InferInput<typeof adminEnable2faBody>;

export interface AdminProfile {
  id: string;
  email: string;
  full_name: string | null;
  totp_enabled: boolean;
  status: 'active' | 'disabled';
  last_login: string | null;
  created_at: string;
}

/**
 * POST /auth/admin/login. Exactly one of: `requires_2fa_setup` (first sign-in; `access_token` is the `ats_` setup
 * token that opens only setup-2fa and enable-2fa), or `requires_2fa` with a short-lived `temp_token`. A full
 * admin token is never handed out without a second factor, so `access_token` is null in the second case.
 */
export interface AdminLoginResponse {
  access_token: string | null;
  token_type: 'Bearer';
  requires_2fa: boolean;
  requires_2fa_setup: boolean;
  temp_token: string | null;
  user_id: string;
  /** When the setup or temp token stops working. */
  expires_at: string;
}

export interface Admin2faSetupResponse {
  qr_code_data_uri: string;
  /** The otpauth:// URI the QR code encodes (issuer Attestly). */
  otpauth_url: string;
  /** Base32, for typing into an authenticator by hand. */
  secret: string;
  /** Ten single-use codes, shown once. */
  backup_codes: string[];
}

/** verify-2fa and enable-2fa: the full `ata_` token (8 hours at most, 30 minutes idle). */
export interface AdminTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_at: string;
  idle_timeout_seconds: number;
  admin: AdminProfile;
}
