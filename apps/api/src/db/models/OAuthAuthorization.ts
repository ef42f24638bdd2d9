import { jsonList, nullable, primaryKey, required, sql, stamp, stampedTable } from './columns';
import type { Scope } from '@attestly/contracts';

/**
 * A user's grant to a partner site as the product shows it (the user's "tokens", DESIGN.md §4; the back office's
 * "OAuth authorizations"). The id is the provider's grant id. The provider's own Grant payload is deleted on
 * revocation; this row stays, marked revoked, as the user's history.
 */
export class OAuthAuthorization extends stampedTable('oauth_authorizations', {
  id: primaryKey(sql.string(128)),
  user_id: required(sql.uuid()),
  partner_id: required(sql.uuid()),
  site_id: required(sql.uuid()),
  client_id: required(sql.string(64)),
  scopes: jsonList<Scope>('scopes'),
  age_threshold: nullable(sql.integer()),
  jurisdiction: nullable(sql.string(120)),
  created_at: stamp(),
  updated_at: stamp(),
  expires_at: required(sql.date()),
  last_used_at: nullable(sql.date()),
  revoked_at: nullable(sql.date()),
  revoked_reason: nullable(sql.string(64)),
}) {}
