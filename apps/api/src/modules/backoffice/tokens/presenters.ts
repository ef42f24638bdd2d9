import type { AdminAccessToken, AdminOAuthAuthorization, Scope } from '@attestly/contracts';
import type { OAuthAuthorization } from '../../../db/models/index';
import { toDate } from '../../../db/rows';
import { artefactFingerprint } from '../../../oidc/artefacts';
import { iso } from '../common';
import { asScopes } from '../users/presenters';

export interface TokenRow {
  id: string;
  model: string;
  payload: string;
  expires_at: unknown;
  consumed_at: unknown;
  user_id: string | null;
  partner_id: string | null;
  site_id: string | null;
  client_id: string | null;
  grant_revoked_at: unknown;
  last_used_at: unknown;
}

interface TokenPayload {
  clientId?: string;
  scope?: string;
  iat?: number;
  exp?: number;
}

/**
 * spec 02 §3 "Access token": an OAuth access or refresh token a partner site holds, by its stored key and
 * fingerprint: the row holds no usable value (oidc/artefacts.ts).
 */
export function presentAdminToken(row: TokenRow, now: Date): AdminAccessToken {
  let payload: TokenPayload = {};
  try {
    payload = JSON.parse(row.payload) as TokenPayload;
  } catch {
    payload = {};
  }
  const expires = toDate(row.expires_at);
  const active =
    toDate(row.consumed_at) === null && toDate(row.grant_revoked_at) === null && (!expires || expires > now);
  return {
    id: row.id,
    fingerprint: artefactFingerprint(row.id),
    kind: row.model === 'RefreshToken' ? 'refresh_token' : 'access_token',
    user_id: row.user_id,
    partner_id: row.partner_id,
    site_id: row.site_id,
    client_id: payload.clientId ?? row.client_id ?? '',
    scopes: payload.scope ? payload.scope.split(' ') : [],
    is_active: active,
    expires_at: iso(expires),
    created_at: payload.iat ? new Date(payload.iat * 1000).toISOString() : null,
    last_used_at: iso(toDate(row.last_used_at)),
  };
}

export function presentAdminAuthorization(
  row: OAuthAuthorization,
  names: { partner: string | null; site: string | null; email: string | null },
  now: Date,
): AdminOAuthAuthorization {
  return {
    id: row.id,
    user_id: row.user_id,
    user_email: names.email,
    partner_id: row.partner_id,
    partner_name: names.partner,
    site_id: row.site_id,
    site_name: names.site,
    scopes_granted: asScopes(row.scopes) as Scope[],
    is_active: !row.revoked_at && row.expires_at > now,
    expires_at: row.expires_at.toISOString(),
    consent_given_at: row.created_at.toISOString(),
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
    revoked_reason: row.revoked_reason,
  };
}
