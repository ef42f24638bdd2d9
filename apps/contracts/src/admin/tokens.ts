import * as v from 'valibot';
import { type Scope } from '../constants';
import { optionalText } from '../fields';
import { adminPaging, queryFlag, querySearch, uuidQuery } from './fields';

/** Back office: OAuth tokens and authorizations. */

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
