import type {
  AdminUser,
  AdminUserAuthorization,
  AdminUserDetail,
  AdminUserFlag,
  FlagPriority,
  Scope,
  VerificationMethod,
  VerificationStatus,
  VerificationType,
} from '@attestly/contracts';
import { toBool, toDate } from '../../../db/rows';
import { iso } from '../common';

export interface UserRow {
  id: string;
  email: string;
  full_name: string;
  phone: string | null;
  country: string | null;
  state: string | null;
  city: string | null;
  email_verified_at: unknown;
  proven_min_age: number | string | null;
  age_verified_until: unknown;
  location_verified_until: unknown;
  identity_verified_until: unknown;
  is_active: unknown;
  login_attempts: number | string;
  locked_until: unknown;
  last_login_at: unknown;
  created_at: unknown;
  updated_at: unknown;
  flag_reason: string | null;
  flag_priority: string | null;
  flag_notes: string | null;
  flag_created_at: unknown;
  flag_by: string | null;
}

export const USER_COLUMNS = `u.id, u.email, u.full_name, u.phone, u.country, u.state, u.city, u.email_verified_at,
  u.proven_min_age, u.age_verified_until, u.location_verified_until, u.identity_verified_until, u.is_active,
  u.login_attempts, u.locked_until, u.last_login_at, u.created_at, u.updated_at, f.reason AS flag_reason,
  f.priority AS flag_priority, f.reviewer_notes AS flag_notes, f.created_at AS flag_created_at,
  f.flagged_by AS flag_by`;

const live = (value: unknown, now: Date) => {
  const date = toDate(value);
  return date !== null && date > now;
};

function flagOf(row: UserRow): AdminUserFlag | null {
  if (!row.flag_reason) return null;
  return {
    reason: row.flag_reason,
    priority: (row.flag_priority ?? 'medium') as FlagPriority,
    reviewer_notes: row.flag_notes,
    flagged_at: iso(toDate(row.flag_created_at)) as string,
    flagged_by: row.flag_by,
  };
}

export function presentAdminUser(
  row: UserRow,
  counts: { verifications: number; authorizations: number },
  now: Date,
): AdminUser {
  const lockedUntil = toDate(row.locked_until);
  return {
    id: row.id,
    email: row.email,
    // Attestly accounts have no separate user name: the e-mail address is the sign-in name.
    username: null,
    full_name: row.full_name,
    phone: row.phone,
    country: row.country,
    state: row.state,
    city: row.city,
    is_verified: toDate(row.email_verified_at) !== null,
    age_verified: row.proven_min_age !== null && live(row.age_verified_until, now),
    location_verified: live(row.location_verified_until, now),
    identity_verified: live(row.identity_verified_until, now),
    is_active: toBool(row.is_active),
    is_flagged: row.flag_reason !== null,
    flag: flagOf(row),
    login_attempts: Number(row.login_attempts),
    locked_until: lockedUntil && lockedUntil > now ? lockedUntil.toISOString() : null,
    total_verifications: counts.verifications,
    oauth_authorizations: counts.authorizations,
    last_login: iso(toDate(row.last_login_at)),
    created_at: iso(toDate(row.created_at)) as string,
    updated_at: iso(toDate(row.updated_at)) as string,
  };
}

export function presentAdminUserDetail(
  row: UserRow,
  history: Array<{
    id: string;
    verification_type: string;
    verification_method: string;
    status: string;
    created_at: Date;
  }>,
  totalVerifications: number,
  authorizations: AdminUserAuthorization[],
  now: Date,
): AdminUserDetail {
  const base = presentAdminUser(row, { verifications: totalVerifications, authorizations: 0 }, now);
  return {
    ...base,
    oauth_authorizations: authorizations,
    verification_history: history.map((item) => ({
      id: item.id,
      type: item.verification_type as VerificationType,
      method: item.verification_method as VerificationMethod,
      status: item.status as VerificationStatus,
      created_at: item.created_at.toISOString(),
    })),
  };
}

export const asScopes = (value: unknown): Scope[] =>
  (Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? (JSON.parse(value) as unknown[])
      : []) as Scope[];
