import * as v from 'valibot';
import { SCOPES, type Scope } from './constants';
import { currentPassword, email, optionalPhone, optionalText, requiredText } from './fields';
import { allowedScopes, redirectUris, siteDomain } from './partners';
import {
  VERIFICATION_METHODS,
  VERIFICATION_STATUSES,
  VERIFICATION_TYPES,
  type VerificationMethod,
  type VerificationStatus,
  type VerificationType,
} from './verification';

/**
 * The back office API (spec 02 §3, §5, §7, §9): administrator sign-in with mandatory TOTP and every
 * `/api/v1/admin` call. Query strings arrive as text; the schemas turn them into numbers, booleans and dates and
 * answer 422 with a clear message for anything out of range.
 */

// ---------------------------------------------------------------------------------------------------------------
// Constants

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

// ---------------------------------------------------------------------------------------------------------------
// Shared field helpers

/** A query-string flag: `true`/`false` (also 1/0); absent means "not filtered". */
export const queryFlag = (name: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.picklist(['true', 'false', '1', '0'], `${name} must be true or false`),
      v.transform((value) => value === 'true' || value === '1'),
    ),
  );

/** A search box: trimmed, at most 200 characters; blank means no search. */
export const querySearch = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(200, 'search must be at most 200 characters'),
    v.transform((value) => value || undefined),
  ),
);

/** An ISO 8601 date or date-time (`2026-11-26` or `2026-11-26T10:00:00Z`); anything else is a 422. */
export const queryDate = (name: string, { endOfDay = false } = {}) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/,
        `${name} must be an ISO date such as 2026-11-26 or 2026-11-26T10:00:00Z`,
      ),
      // A bare end date means the whole of that day (UTC).
      v.transform((value) =>
        endOfDay && value.length === 10
          ? new Date(new Date(value).getTime() + 86_400_000 - 1)
          : new Date(value),
      ),
      v.check((value) => !Number.isNaN(value.getTime()), `${name} is not a valid date`),
    ),
  );

const wholeNumber = (name: string) =>
  v.pipe(v.string(), v.regex(/^\d{1,7}$/, `${name} must be a whole number`), v.transform(Number));

/** skip 0…1,000,000 and limit 1…100 (default 50, or 100 for audit logs). */
export const adminPaging = (defaultLimit: number = ADMIN_PAGE_SIZE) => ({
  skip: v.optional(
    v.pipe(wholeNumber('skip'), v.maxValue(ADMIN_MAX_SKIP, `skip must be at most ${ADMIN_MAX_SKIP}`)),
    '0',
  ),
  limit: v.optional(
    v.pipe(
      wholeNumber('limit'),
      v.minValue(1, 'limit must be at least 1'),
      v.maxValue(ADMIN_MAX_PAGE_SIZE, `limit must be at most ${ADMIN_MAX_PAGE_SIZE}`),
    ),
    String(defaultLimit),
  ),
});

/** start_date ≤ end_date when both are given (spec 02 §5: the range applies only when both are set). */
const rangeInOrder = (input: { start_date?: Date; end_date?: Date }) =>
  !input.start_date || !input.end_date || input.start_date <= input.end_date;
const RANGE_MESSAGE = 'start_date must not be after end_date';

const uuidParam = (message: string) => v.object({ id: v.pipe(v.string(), v.uuid(message)) });
const uuidQuery = (name: string) => v.optional(v.pipe(v.string(), v.uuid(`${name} must be a UUID`)));

export const adminIdParams = {
  partner: uuidParam(ADMIN_MESSAGES.partnerNotFound),
  user: uuidParam(ADMIN_MESSAGES.userNotFound),
  verification: uuidParam(ADMIN_MESSAGES.verificationNotFound),
  token: v.object({
    id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{10,128}$/, ADMIN_MESSAGES.tokenNotFound)),
  }),
  authorization: v.object({
    id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{10,128}$/, ADMIN_MESSAGES.authorizationNotFound)),
  }),
};

export const adminMediaParams = v.object({
  id: v.pipe(v.string(), v.uuid(ADMIN_MESSAGES.verificationNotFound)),
  mediaId: v.pipe(v.string(), v.uuid('Media not found')),
});

// ---------------------------------------------------------------------------------------------------------------
// Administrator sign-in (spec 02 §4, §5, §7)

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

// ---------------------------------------------------------------------------------------------------------------
// Partners

export const adminPartnerListQuery = v.object({
  ...adminPaging(),
  search: querySearch,
  status: v.optional(v.picklist(PARTNER_STATUSES, `status must be one of ${PARTNER_STATUSES.join(', ')}`)),
  plan: v.optional(v.picklist(ADMIN_DISPLAY_PLANS, `plan must be one of ${ADMIN_DISPLAY_PLANS.join(', ')}`)),
});
export type AdminPartnerListQuery = v.InferInput<typeof adminPartnerListQuery>;

const requiredUrl = (message: string) =>
  v.pipe(
    requiredText(message, 300),
    v.check((value) => {
      try {
        return ['http:', 'https:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, 'Website must be a URL starting with http:// or https://'),
  );

const planField = v.picklist(ADMIN_PARTNER_PLANS, `plan must be one of ${ADMIN_PARTNER_PLANS.join(', ')}`);
const partnerStatusField = v.picklist(
  PARTNER_STATUSES,
  `status must be one of ${PARTNER_STATUSES.join(', ')}`,
);

/** spec 02 §5 "Create partner": partner_name, contact_email, contact_name and website required; plan starter. */
export const adminCreatePartnerBody = v.object({
  partner_name: requiredText('Partner name is required', 200),
  contact_email: v.pipe(
    v.optional(v.nullable(v.string()), ''),
    v.transform((value) => value ?? ''),
    email,
  ),
  contact_name: requiredText('Contact name is required', 120),
  website: requiredUrl('Website is required'),
  phone: optionalPhone,
  company_type: optionalText(40),
  plan: v.optional(planField, 'starter'),
  status: v.optional(partnerStatusField, 'active'),
  /** The admin vouches for the address: no confirmation mail is needed before the partner can sign in. */
  skip_email_verification: v.optional(v.boolean('skip_email_verification must be true or false'), false),
  /**
   * How the partner gets in (issue 25 item 4): `show_password` answers a first password once, for the admin to
   * hand over; `send_invitation` mails the partner a link to choose a password (valid for
   * PARTNER_INVITATION_DAYS days) and answers no password.
   */
  sign_in: v.optional(
    v.picklist(PARTNER_SIGN_IN_CHOICES, 'sign_in must be show_password or send_invitation'),
    'show_password',
  ),
});
export type AdminCreatePartnerBody = v.InferInput<typeof adminCreatePartnerBody>;

export const adminUpdatePartnerBody = v.pipe(
  v.object({
    contact_name: v.optional(optionalText(120)),
    status: v.optional(partnerStatusField),
    plan: v.optional(planField),
  }),
  v.check(
    (input) => input.contact_name !== undefined || input.status !== undefined || input.plan !== undefined,
    'Nothing to update: send contact_name, status or plan',
  ),
);
export type AdminUpdatePartnerBody = v.InferInput<typeof adminUpdatePartnerBody>;

export const adminDeactivatePartnerBody = v.object({
  reason: optionalText(500),
  notify_partner: v.optional(v.boolean('notify_partner must be true or false'), false),
});
export type AdminDeactivatePartnerBody = v.InferInput<typeof adminDeactivatePartnerBody>;

/** Approve and suspend: an optional reason that goes into the audit entry (and the mail, when notifying). */
export const adminPartnerActionBody = v.object({
  reason: optionalText(500),
  notify_partner: v.optional(v.boolean('notify_partner must be true or false'), false),
});
export type AdminPartnerActionBody = v.InferInput<typeof adminPartnerActionBody>;

/** spec 02 §5 "Create Site": redirect URIs may come as a list or as text with one URI per line. */
export const adminCreateSiteBody = v.object({
  site_name: requiredText('Site name is required', 120),
  domain: siteDomain,
  description: optionalText(1000),
  redirect_uris: v.pipe(
    v.optional(v.union([v.string(), v.array(v.string())], 'Redirect URIs must be a list'), () => []),
    v.transform((value) =>
      (Array.isArray(value) ? value : value.split(/\r?\n/)).map((line) => line.trim()).filter(Boolean),
    ),
    redirectUris,
  ),
  allowed_scopes: allowedScopes,
});
export type AdminCreateSiteBody = v.InferInput<typeof adminCreateSiteBody>;

export interface AdminPartnerStatistics {
  total_verifications: number;
  successful_verifications: number;
  failed_verifications: number;
  pending_verifications: number;
  total_sites: number;
  active_oauth_auths: number;
}

export interface AdminSite {
  id: string;
  site_name: string;
  domain: string;
  description: string | null;
  redirect_uris: string[];
  allowed_scopes: Scope[];
  client_id: string;
  is_active: boolean;
  total_verifications: number;
  oauth_authorizations: number;
  created_at: string;
}

/** spec 02 §3 "Partner". api_key is the key's visible prefix (the secret is shown once, on regeneration). */
export interface AdminPartner {
  id: string;
  partner_name: string;
  contact_name: string | null;
  contact_email: string;
  website: string | null;
  phone: string | null;
  company_type: string | null;
  status: string;
  plan: string;
  api_key: string | null;
  webhook_url: string | null;
  /** From the partner's plan: requests per hour, and the monthly verification quota (no separate daily cap). */
  rate_limits: {
    api_calls_per_hour: number;
    verification_requests_per_day: number | null;
    verifications_per_month: number;
  } | null;
  business_address: {
    street: string | null;
    city: string | null;
    state: string | null;
    postal_code: string | null;
    country: string | null;
  } | null;
  /** Read from what the partner's active sites may ask (their allowed scopes); no site asks nothing. */
  verification_settings: {
    require_age_verification: boolean;
    require_location_verification: boolean;
    /** The lowest age any of its sites asks about; null when none asks an age. */
    default_age_threshold: number | null;
    allowed_verification_methods: VerificationMethod[];
  };
  email_verified: boolean;
  created_at: string;
  updated_at: string;
  last_login: string | null;
  total_sites: number;
  total_verifications: number;
}

export interface AdminPartnerDetail extends AdminPartner {
  sites: AdminSite[];
  statistics: AdminPartnerStatistics;
  /** Only in the answer to POST /partners: the first password, to hand to the partner (never stored in clear). */
  temporary_password?: string;
  /** Only in the answer to POST /partners with `send_invitation`: where the invitation went. */
  invitation_sent_to?: string;
}

export interface AdminPartnerList {
  partners: AdminPartner[];
  total_count: number;
}

export interface AdminApiKeyResponse {
  /** The new key, shown once. */
  api_key: string;
  key_id: string | null;
  message: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Users

const countryFilter = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^[A-Za-z]{2}$/, 'country must be a two-letter code such as US, CA or GB'),
    v.toUpperCase(),
  ),
);

export const adminUserListQuery = v.object({
  ...adminPaging(),
  search: querySearch,
  verification_status: v.optional(
    v.picklist(
      USER_VERIFICATION_FILTERS,
      `verification_status must be one of ${USER_VERIFICATION_FILTERS.join(', ')}`,
    ),
  ),
  flagged_only: queryFlag('flagged_only'),
  verified_only: queryFlag('verified_only'),
  country: countryFilter,
});
export type AdminUserListQuery = v.InferInput<typeof adminUserListQuery>;

export const adminUserVerificationsQuery = v.object({ ...adminPaging() });

export const adminFlagUserBody = v.object({
  reason: requiredText(ADMIN_MESSAGES.flagReasonRequired, 500),
  priority: v.optional(
    v.picklist(FLAG_PRIORITIES, `priority must be one of ${FLAG_PRIORITIES.join(', ')}`),
    'medium',
  ),
  reviewer_notes: optionalText(2000),
});
export type AdminFlagUserBody = v.InferInput<typeof adminFlagUserBody>;

export const adminUnflagUserBody = v.object({ resolution_notes: optionalText(2000) });
export type AdminUnflagUserBody = v.InferInput<typeof adminUnflagUserBody>;

/** Edit user: only the fields sent change; email changes reset the address's verification. */
/**
 * "Add User" (spec 02 §2; issue 25 item 6). The person gets in as a partner made here does (`sign_in`): an
 * invitation mail with a link to choose a password (the default: it also proves the address), or a first password
 * shown once to the administrator.
 */
export const adminCreateUserBody = v.object({
  email: v.pipe(
    v.optional(v.nullable(v.string()), ''),
    v.transform((value) => value ?? ''),
    email,
  ),
  full_name: requiredText('Full name is required', 120),
  sign_in: v.optional(
    v.picklist(PARTNER_SIGN_IN_CHOICES, 'sign_in must be show_password or send_invitation'),
    'send_invitation',
  ),
});
export type AdminCreateUserBody = v.InferInput<typeof adminCreateUserBody>;

/** The answer to POST /admin/users: the user, and the one-time password or where the invitation went. */
export interface AdminCreatedUser extends AdminUserDetail {
  temporary_password?: string;
  invitation_sent_to?: string;
}

export const adminEditUserBody = v.pipe(
  v.object({
    full_name: v.optional(requiredText('Full name is required', 120)),
    email: v.optional(email),
    phone: v.optional(optionalPhone),
    country: v.optional(
      v.pipe(
        optionalText(2),
        v.check(
          (value) => value === null || /^[A-Za-z]{2}$/.test(value),
          'country must be a two-letter code such as US, CA or GB',
        ),
        v.transform((value) => value?.toUpperCase() ?? null),
      ),
    ),
    state: v.optional(optionalText(100)),
    city: v.optional(optionalText(100)),
  }),
  v.check((input) => Object.values(input).some((value) => value !== undefined), 'Nothing to update'),
);
export type AdminEditUserBody = v.InferInput<typeof adminEditUserBody>;

/** Lock: for `duration_hours`, or until unlocked when absent. Every session of the user ends. */
export const adminLockUserBody = v.object({
  reason: optionalText(500),
  duration_hours: v.optional(
    v.pipe(
      v.number('duration_hours must be a number'),
      v.integer('duration_hours must be a whole number'),
      v.minValue(1, 'duration_hours must be at least 1'),
      v.maxValue(24 * 365 * 10, 'duration_hours must be at most 87600'),
    ),
  ),
});
export type AdminLockUserBody = v.InferInput<typeof adminLockUserBody>;

export const adminDeleteUserBody = v.object({ reason: optionalText(500) });
export type AdminDeleteUserBody = v.InferInput<typeof adminDeleteUserBody>;

export interface AdminUserFlag {
  reason: string;
  priority: FlagPriority;
  reviewer_notes: string | null;
  flagged_at: string;
  flagged_by: string | null;
}

/** spec 02 §3 "User (back office view)", list row. */
export interface AdminUser {
  id: string;
  email: string;
  username: string | null;
  full_name: string;
  phone: string | null;
  country: string | null;
  state: string | null;
  city: string | null;
  is_verified: boolean;
  age_verified: boolean;
  location_verified: boolean;
  identity_verified: boolean;
  is_active: boolean;
  is_flagged: boolean;
  flag: AdminUserFlag | null;
  login_attempts: number;
  locked_until: string | null;
  total_verifications: number;
  oauth_authorizations: number;
  last_login: string | null;
  created_at: string;
  updated_at: string;
}

export interface AdminUserAuthorization {
  id: string;
  partner_id: string;
  partner_name: string;
  site_id: string;
  site_name: string;
  scopes: Scope[];
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

export interface AdminUserDetail extends Omit<AdminUser, 'oauth_authorizations'> {
  oauth_authorizations: AdminUserAuthorization[];
  verification_history: Array<{
    id: string;
    type: VerificationType;
    method: VerificationMethod;
    status: VerificationStatus;
    created_at: string;
  }>;
}

export interface AdminUserList {
  users: AdminUser[];
  total_count: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Verifications (the review queue)

export const adminVerificationListQuery = v.pipe(
  v.object({
    ...adminPaging(),
    status: v.optional(
      v.picklist(VERIFICATION_STATUSES, `status must be one of ${VERIFICATION_STATUSES.join(', ')}`),
    ),
    type: v.optional(v.picklist(VERIFICATION_TYPES, `type must be one of ${VERIFICATION_TYPES.join(', ')}`)),
    method: v.optional(
      v.picklist(VERIFICATION_METHODS, `method must be one of ${VERIFICATION_METHODS.join(', ')}`),
    ),
    needs_review: queryFlag('needs_review'),
    user_id: uuidQuery('user_id'),
    search: querySearch,
    start_date: queryDate('start_date'),
    end_date: queryDate('end_date', { endOfDay: true }),
  }),
  v.check((input) => rangeInOrder(input), RANGE_MESSAGE),
);
export type AdminVerificationListQuery = v.InferInput<typeof adminVerificationListQuery>;

export const adminApproveVerificationBody = v.object({
  reviewer_notes: requiredText(ADMIN_MESSAGES.reviewerNotesRequired, 2000),
  confidence_override: v.optional(
    v.nullable(
      v.pipe(
        v.number(ADMIN_MESSAGES.confidenceRange),
        v.minValue(0, ADMIN_MESSAGES.confidenceRange),
        v.maxValue(1, ADMIN_MESSAGES.confidenceRange),
        v.check(
          (value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9,
          ADMIN_MESSAGES.confidenceStep,
        ),
      ),
    ),
  ),
});
export type AdminApproveVerificationBody = v.InferInput<typeof adminApproveVerificationBody>;

/**
 * One reason is enough to reject (issue 25 item 11): it is what the user is told. Internal notes are optional
 * (spec 02 §5 asked for both; a reviewer then typed the same sentence twice).
 */
export const adminRejectVerificationBody = v.object({
  rejection_reason: requiredText(ADMIN_MESSAGES.rejectionReasonRequired, 500),
  reviewer_notes: optionalText(2000),
});
export type AdminRejectVerificationBody = v.InferInput<typeof adminRejectVerificationBody>;

export const adminRetriggerVerificationBody = v.object({
  /** "Force reprocess (bypass cache)": analyse again even when a result for the same media exists. */
  force_reprocess: v.optional(v.boolean('force_reprocess must be true or false'), false),
  notes: optionalText(2000),
});
export type AdminRetriggerVerificationBody = v.InferInput<typeof adminRetriggerVerificationBody>;

export interface ReviewNote {
  timestamp: string;
  note: string;
  admin_user_id?: string | null;
  action?: string;
}

export interface AdminVerificationMedia {
  id: string;
  content_type: string;
  byte_length: number;
  purge_after: string;
  /** GET this path (admin token) to see the media, decrypted on request and never cached. */
  url: string;
}

/** spec 02 §3 "Verification". */
export interface AdminVerification {
  id: string;
  user_id: string;
  user_email: string | null;
  verification_type: VerificationType;
  verification_method: VerificationMethod;
  status: VerificationStatus;
  confidence_score: number | null;
  needs_manual_review: boolean;
  age_threshold: number | null;
  message: string | null;
  partner_id: string | null;
  site_id: string | null;
  submitted_at: string;
  reviewed_at: string | null;
  reviewed_by: string | null;
  has_media: boolean;
  /**
   * Whether Retrigger can run the analysis again (issue 25 item 5): a document case that is not decided for good
   * (pending, failed or rejected) whose document is still kept. Camera and card checks cannot be re-run.
   */
  can_retrigger: boolean;
  /**
   * What `confidence_score` measures, or why there is none: for a document, how well the machine-readable zone was
   * read, and no figure while the holder is not confirmed (no portrait, no live video, a face that does not match).
   */
  confidence_note: string | null;
}

export interface AdminVerificationDetail extends AdminVerification {
  document_analysis: Record<string, unknown> | null;
  result_details: Record<string, unknown>;
  review_notes: ReviewNote[];
  media: AdminVerificationMedia[];
}

export interface AdminVerificationList {
  verifications: AdminVerification[];
  total_count: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Tokens and OAuth authorizations

/** active_only=true: active only; active_only=false: revoked or expired only; absent: all. */
export const adminTokenListQuery = v.object({
  ...adminPaging(),
  user_id: uuidQuery('user_id'),
  partner_id: uuidQuery('partner_id'),
  /** Part of a user's e-mail address or name (issue 25 item 11: filter by person, not only by id). */
  user: querySearch,
  /** Part of a partner's name or e-mail address. */
  partner: querySearch,
  active_only: queryFlag('active_only'),
});
export type AdminTokenListQuery = v.InferInput<typeof adminTokenListQuery>;

export const adminRevokeTokenBody = v.object({
  reason: optionalText(500),
  notify_user: v.optional(v.boolean('notify_user must be true or false'), false),
  notify_partner: v.optional(v.boolean('notify_partner must be true or false'), false),
});
export type AdminRevokeTokenBody = v.InferInput<typeof adminRevokeTokenBody>;

/**
 * spec 02 §3 "Access token": an OAuth access or refresh token issued to a partner site. Never the token itself
 * (issue 21 item 2): `id` is the opaque key it is stored under (a SHA-256 of its value), which revokes it here and
 * is refused as a token everywhere; `fingerprint` is that key's first 12 characters, to match a token someone
 * reports (base64url of SHA-256 of the value).
 */
export interface AdminAccessToken {
  id: string;
  fingerprint: string;
  kind: 'access_token' | 'refresh_token';
  user_id: string | null;
  partner_id: string | null;
  site_id: string | null;
  client_id: string;
  scopes: string[];
  is_active: boolean;
  expires_at: string | null;
  created_at: string | null;
  last_used_at: string | null;
}

export interface AdminTokenList {
  tokens: AdminAccessToken[];
  total_count: number;
}

/** spec 02 §3 "OAuth authorization". */
export interface AdminOAuthAuthorization {
  id: string;
  user_id: string;
  user_email: string | null;
  partner_id: string;
  partner_name: string | null;
  site_id: string;
  site_name: string | null;
  scopes_granted: Scope[];
  is_active: boolean;
  expires_at: string;
  consent_given_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_reason: string | null;
}

export interface AdminOAuthAuthorizationList {
  authorizations: AdminOAuthAuthorization[];
  total_count: number;
}

// ---------------------------------------------------------------------------------------------------------------
// System

/** spec 02 §3 "Admin system stats"; the two redacted fields are the 24-hour ones (DESIGN.md §8). */
export interface AdminSystemStats {
  total_users: number;
  verified_users: number;
  active_users: number;
  registrations_24h: number;
  total_partners: number;
  active_partners: number;
  total_tokens: number;
  total_verifications: number;
  verifications_24h: number;
  /** Approved ÷ (approved + rejected + failed) over 30 days, 0…1; null with no finished verification. */
  success_rate: number | null;
  pending_reviews: number;
  generated_at: string;
}

/**
 * `off`: a supported mode in which the service is deliberately not used (billing without Stripe); it needs no fix and
 * counts as working. `not_configured`: something this installation should have and does not have yet.
 */
export type HealthStatus = 'healthy' | 'degraded' | 'unhealthy' | 'not_configured' | 'off';

export interface AdminServiceHealth {
  status: HealthStatus;
  error: string | null;
  /** How the service runs, when that is worth saying but is no problem (mail to the outbox, billing off). */
  note?: string;
  details?: Record<string, unknown>;
}

/** spec 02 §3 "Health". */
export interface AdminSystemHealth {
  overall_status: 'healthy' | 'degraded' | 'unhealthy';
  database: { status: HealthStatus; error: string | null; latency_ms: number | null; dialect: string };
  services: Record<string, AdminServiceHealth>;
  metrics: {
    recent_api_calls: number;
    active_users_last_hour: number;
    healthy_services: number;
    total_services: number;
  };
  checked_at: string;
}

export interface AdminAlert {
  id: string;
  type: string;
  message: string;
  severity: AuditSeverity;
  created_at: string;
}

export interface AdminAlertList {
  alerts: AdminAlert[];
}

// ---------------------------------------------------------------------------------------------------------------
// Audit logs

export const adminAuditListQuery = v.pipe(
  v.object({
    ...adminPaging(ADMIN_AUDIT_PAGE_SIZE),
    event_type: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.regex(/^[a-z0-9_.]{1,64}$/, 'event_type must be an event name such as partner.created'),
      ),
    ),
    severity: v.optional(
      v.picklist(AUDIT_SEVERITIES, `severity must be one of ${AUDIT_SEVERITIES.join(', ')}`),
    ),
    user_id: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64, 'user_id is too long'))),
    partner_id: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64, 'partner_id is too long'))),
    admin_user_id: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64, 'admin_user_id is too long'))),
    start_date: queryDate('start_date'),
    end_date: queryDate('end_date', { endOfDay: true }),
  }),
  v.check((input) => rangeInOrder(input), RANGE_MESSAGE),
);
export type AdminAuditListQuery = v.InferInput<typeof adminAuditListQuery>;

/** spec 02 §3 "Audit log". */
export interface AdminAuditLog {
  id: string;
  /** The event in the one naming scheme (canonicalAuditEvent). */
  event_type: string;
  event: string;
  /** Who acted, by e-mail: the administrator, else the user; null for the system or an erased account. */
  actor_email: string | null;
  /** The user the entry is about, by e-mail (null when none, or erased). */
  user_email: string | null;
  /** The partner the entry is about, by name. */
  partner_name: string | null;
  severity: AuditSeverity;
  timestamp: string;
  user_id: string | null;
  partner_id: string | null;
  admin_user_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
  metadata: { hash: string; prev_hash: string };
}

export interface AdminAuditLogList {
  audit_logs: AdminAuditLog[];
  total_count: number;
}

/** Scopes a site may be given from the back office (same list as the partner portal). */
export const ADMIN_SITE_SCOPES: readonly Scope[] = SCOPES;
