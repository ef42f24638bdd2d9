import type { RateLimitRule } from '../../shared/rate-limit/service';
import { LOGIN_LOCKOUT } from './lockout';

/** Failed sign-ins from one address before that address is locked out of the account, and for how long (lockout.ts). */
export const MAX_FAILED_LOGINS = LOGIN_LOCKOUT.pair.limit;
export const LOCKOUT_MS = LOGIN_LOCKOUT.pair.lockMs;
export const RESET_TOKEN_TTL_MS = 60 * 60_000;
export const EMAIL_TOKEN_TTL_MS = 24 * 60 * 60_000;
export const PHONE_CODE_TTL_MS = 10 * 60_000;
export const PHONE_CODE_MAX_ATTEMPTS = 5;

export const FORGOT_PASSWORD_BY_EMAIL: RateLimitRule = {
  name: 'forgot:email',
  limit: 3,
  windowMs: 60 * 60_000,
};
export const EMAIL_VERIFICATION_BY_USER: RateLimitRule = {
  name: 'email-verify:user',
  limit: 3,
  windowMs: 15 * 60_000,
};
/** E-mail address changes an account may ask for (each one mails someone). */
export const EMAIL_CHANGE_BY_USER: RateLimitRule = {
  name: 'email-change:user',
  limit: 5,
  windowMs: 60 * 60_000,
};
/**
 * Mail any one address may receive from sign-ups and address changes, whoever asks: without it anybody could have
 * Attestly mail an arbitrary address over and over. Counted per recipient (hashed), the same for taken and free
 * addresses, so the limit itself tells nothing about which addresses have accounts.
 */
export const MAIL_BY_RECIPIENT: RateLimitRule = {
  name: 'mail:recipient',
  limit: 5,
  windowMs: 60 * 60_000,
};
/** E-mail links carry 192-bit tokens: short enough that the whole link stays on one line of a mail (≤ 76 chars). */
export const EMAIL_TOKEN_BYTES = 24;

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const LOCKED_OUT = 'Too many failed sign-in attempts. Please try again later or reset your password.';
