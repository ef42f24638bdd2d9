import * as v from 'valibot';
import { type Scope } from '../constants';
import { email, optionalPhone, optionalText, requiredText } from '../fields';
import { type VerificationMethod, type VerificationStatus, type VerificationType } from '../verification';
import {
  PARTNER_SIGN_IN_CHOICES,
  FLAG_PRIORITIES,
  type FlagPriority,
  USER_VERIFICATION_FILTERS,
  ADMIN_MESSAGES,
} from './constants';
import { queryFlag, querySearch, adminPaging } from './fields';

/** Back office: users, flags, locks and deletion. */

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
