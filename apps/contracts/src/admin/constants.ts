/** Constants of the back office: page sizes, plans, statuses, audit event names, messages. */

/** Page sizes of spec 02 §9: 50 for every list, 100 for audit logs; never more than 100 per page. */
export const ADMIN_PAGE_SIZE = 50;
export const ADMIN_AUDIT_PAGE_SIZE = 100;
export const ADMIN_MAX_PAGE_SIZE = 100;
export const ADMIN_MAX_SKIP = 1_000_000;

/** spec 02 §4 "Partner plans": the edit form offers these four. */
export const ADMIN_PARTNER_PLANS = ['free', 'starter', 'growth', 'scale'] as const;
export type AdminPartnerPlan = (typeof ADMIN_PARTNER_PLANS)[number];
/** Plans that may be displayed (older or negotiated plans carry these names). */
export const ADMIN_DISPLAY_PLANS = [...ADMIN_PARTNER_PLANS, 'professional', 'enterprise'] as const;

export const PARTNER_STATUSES = ['active', 'suspended', 'pending_verification'] as const;

/** How a partner made in the back office signs in for the first time (adminCreatePartnerBody `sign_in`). */
export const PARTNER_SIGN_IN_CHOICES = ['show_password', 'send_invitation'] as const;
export type PartnerSignInChoice = (typeof PARTNER_SIGN_IN_CHOICES)[number];
/** How long the invitation link to choose a first password works. */
export const PARTNER_INVITATION_DAYS = 7;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];

export const FLAG_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type FlagPriority = (typeof FLAG_PRIORITIES)[number];

export const USER_VERIFICATION_FILTERS = ['verified', 'unverified', 'pending'] as const;

export const AUDIT_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type AuditSeverity = (typeof AUDIT_SEVERITIES)[number];

/** spec 02 §4 "Audit event types", written as the spec spells them, plus the back office's other actions. */
export const ADMIN_AUDIT_EVENTS = [
  'partner_created',
  'partner_updated',
  'partner_deactivated',
  'partner_approved',
  'partner_suspended',
  'partner_deleted',
  'site_created',
  'user_flagged',
  'user_unflagged',
  'user_created',
  'user_updated',
  'user_locked',
  'user_unlocked',
  'user_deleted',
  'verification_approved',
  'verification_rejected',
  'verification_retriggered',
  'verification_media_viewed',
  'token_revoked',
  'authorization_revoked',
  'api_key_regenerated',
  'system_alert',
  'admin_login',
  'admin_login_failed',
  'admin_locked_out',
  'admin_2fa_failed',
  'admin_2fa_enabled',
  'admin_2fa_reset',
  'admin_backup_code_used',
  'admin_created',
  'admin_disabled',
  'admin_logout',
] as const;
export type AdminAuditEvent = (typeof ADMIN_AUDIT_EVENTS)[number];

/**
 * One naming scheme for audit events, `area.action` (issue 25 item 11), as most events are written. The back
 * office's own events are stored under the spec 02 §4 names (`partner_created`, …): stored rows are hash-chained
 * and stay as written, so screens show them, and filters find them, under these names instead.
 */
export const AUDIT_EVENT_NAMES: Readonly<Record<string, string>> = {
  partner_created: 'partner.created',
  partner_updated: 'partner.updated',
  partner_deactivated: 'partner.deactivated',
  partner_approved: 'partner.approved',
  partner_suspended: 'partner.suspended',
  partner_deleted: 'partner.deleted',
  site_created: 'partner.site_created',
  api_key_regenerated: 'partner.api_key_regenerated',
  user_flagged: 'user.flagged',
  user_unflagged: 'user.unflagged',
  user_created: 'user.created',
  user_updated: 'user.updated',
  user_locked: 'user.locked',
  user_unlocked: 'user.unlocked',
  user_deleted: 'user.deleted',
  verification_approved: 'verification.approved',
  verification_rejected: 'verification.rejected',
  verification_retriggered: 'verification.retriggered',
  verification_media_viewed: 'verification.media_viewed',
  token_revoked: 'oauth.token_revoked',
  authorization_revoked: 'oauth.authorization_revoked',
  system_alert: 'system.alert',
  signing_keys_rotated: 'system.signing_keys_rotated',
  admin_login: 'admin.login',
  admin_login_failed: 'admin.login_failed',
  admin_locked_out: 'admin.locked_out',
  admin_2fa_failed: 'admin.2fa_failed',
  admin_2fa_enabled: 'admin.2fa_enabled',
  admin_2fa_reset: 'admin.2fa_reset',
  admin_backup_code_used: 'admin.backup_code_used',
  admin_created: 'admin.created',
  admin_disabled: 'admin.disabled',
  admin_logout: 'admin.logout',
};

/** The name an event is shown under (`partner_created` → `partner.created`; dotted names are unchanged). */
export const canonicalAuditEvent = (stored: string): string => AUDIT_EVENT_NAMES[stored] ?? stored;

/** Every stored name of the event a filter names, in either scheme: `partner.created` → both spellings. */
export function storedAuditEventNames(name: string): string[] {
  const canonical = canonicalAuditEvent(name);
  return [
    canonical,
    ...Object.keys(AUDIT_EVENT_NAMES).filter((stored) => AUDIT_EVENT_NAMES[stored] === canonical),
  ];
}

/** Revocations and unflagging record these when the admin gives no text (spec 02 §6). */
export const REVOKED_BY_ADMIN = 'Revoked by admin';
export const UNFLAGGED_BY_ADMIN = 'Unflagged by admin';

/** TOTP parameters (RFC 6238): SHA-1, 30-second steps, 6 digits, one step of drift either way. */
export const TOTP = { issuer: 'Attestly', digits: 6, periodSeconds: 30, window: 1, backupCodes: 10 } as const;

/** Messages of spec 02 §5 and §8, shared by the API and the screens. */
export const ADMIN_MESSAGES = {
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  codeRequired: '2FA code is required',
  codeSixDigits: '2FA code must be 6 digits',
  currentPasswordRequired: 'Please enter your current password',
  verificationCodeRequired: 'Please enter a verification code',
  invalidCode: 'Invalid verification code',
  /** A code check that failed without the server saying why (spec 02 §8 "Failed to verify"). */
  verifyFailed: 'Failed to verify',
  loginFailed: 'Login failed',
  setupFailed: 'Failed to setup 2FA',
  reviewerNotesRequired: 'Reviewer notes are required',
  rejectionReasonRequired: 'Rejection reason is required',
  flagReasonRequired: 'Reason is required',
  confidenceRange: 'Confidence override must be a number from 0 to 1',
  confidenceStep: 'Confidence override must be in steps of 0.01',
  unflagConfirm: 'Are you sure you want to unflag this user?',
  revokeTokenConfirm: 'Are you sure you want to revoke this token?',
  revokeAuthorizationConfirm: 'Are you sure you want to revoke this OAuth authorization?',
  partnerNotFound: 'Partner not found',
  userNotFound: 'User not found',
  verificationNotFound: 'Verification not found',
  tokenNotFound: 'Token not found',
  authorizationNotFound: 'OAuth authorization not found',
} as const;
