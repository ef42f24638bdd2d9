/** Constants shared by the API, the web app, the CLI and the SDK (spec 01 §3, §9). */

export const API_BASE_PATH = '/api/v1';

/**
 * Product scopes. basic_info (always granted) yields only a pairwise subject; `profile` (the display name) and
 * `email` (address and whether it is verified) are separate, optional and declinable on the consent screen, so
 * partners cannot link users across partners through shared contact data (issue 15 item 4; DESIGN.md §4).
 */
export const SCOPES = [
  'basic_info',
  'profile',
  'email',
  'AGE_12',
  'AGE_16',
  'AGE_18',
  'AGE_21',
  'location_verification',
  'identity_verification',
] as const;
export type Scope = (typeof SCOPES)[number];
export const DEFAULT_SITE_SCOPES: readonly Scope[] = ['basic_info', 'AGE_18'];

export const ACCOUNT_KINDS = ['user', 'partner', 'admin', 'admin_setup'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** Bearer tokens carry their kind as a readable prefix so a leaked token is recognisable in logs and scanners. */
export const TOKEN_PREFIX: Record<AccountKind, string> = {
  user: 'atu_',
  partner: 'atp_',
  admin: 'ata_',
  admin_setup: 'ats_',
};

export const COUNTRIES = [
  { code: 'US', name: 'United States' },
  { code: 'CA', name: 'Canada' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'AU', name: 'Australia' },
  { code: 'DE', name: 'Germany' },
  { code: 'FR', name: 'France' },
] as const;
export type CountryCode = (typeof COUNTRIES)[number]['code'];

export const BUSINESS_TYPES = [
  'Gaming',
  'E-commerce',
  'Social Media',
  'Dating',
  'Financial Services',
  'Healthcare',
  'Education',
  'Entertainment',
  'Other',
] as const;

export const LIMITS = {
  passwordMinLength: 8,
  passwordMaxLength: 256,
  jsonBodyBytes: 100 * 1024,
  profilePhotoBytes: 1024 * 1024,
  /** Profile photos are stored re-encoded with their longest side at most this many pixels. */
  profilePhotoPixels: 512,
  documentBytes: 10 * 1024 * 1024,
  videoBytes: 20 * 1024 * 1024,
  videoSeconds: 5,
  listDefaultLimit: 100,
  listMaxLimit: 500,
} as const;

export const AUDIT_EVENTS = [
  'user.registered',
  'user.login_succeeded',
  'user.login_failed',
  'user.locked_out',
  'user.logged_out',
  'user.token_refreshed',
  'user.profile_updated',
  'user.profile_photo_updated',
  'user.password_changed',
  'user.password_reset_requested',
  'user.password_reset',
  'user.email_verification_sent',
  'user.email_verified',
  'user.email_change_requested',
  'user.email_changed',
  'user.phone_verification_sent',
  'user.phone_verified',
  'user.session_revoked',
  'user.account_deleted',
  'user.data_exported',
  'newsletter.subscribed',
  'newsletter.confirmed',
  'newsletter.unsubscribed',
  'partner.registered',
  'partner.login_succeeded',
  'partner.login_failed',
  'partner.logged_out',
  'partner.profile_updated',
  'partner.site_created',
  'partner.site_updated',
  'partner.site_deleted',
  'partner.site_secret_rotated',
  'oauth.consent_granted',
  'oauth.consent_denied',
  'oauth.token_issued',
  'oauth.token_revoked',
  'verification.completed',
  'verification.failed',
  'verification.submitted',
  'verification.reviewed',
  'verification.media_purged',
] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number] | (string & {});
