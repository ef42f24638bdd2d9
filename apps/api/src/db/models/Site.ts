import { flag, jsonList, nullable, required, sql, stamp, stampedTable, unique, uuidKey } from './columns';
import type { ClientType, Scope } from '@attestly/contracts';

/**
 * A partner's site, which is also an OpenID Connect client (DESIGN.md §4). The client secret is never stored:
 * only a keyed hash of it (see modules/partners/sites/service.ts), so a database leak reveals no usable secret.
 * Deleting a site keeps the row (deleted_at) so users' token history can still name it.
 */
export class Site extends stampedTable('sites', {
  id: uuidKey(),
  partner_id: required(sql.uuid()),
  client_id: unique(sql.string(64)),
  client_type: required(sql.string<ClientType>(16)),
  client_secret_hash: nullable(sql.string(64)),
  site_name: required(sql.string(120)),
  domain: required(sql.string(253)),
  description: nullable(sql.text()),
  redirect_uris: jsonList<string>('redirect_uris'),
  allowed_scopes: jsonList<Scope>('allowed_scopes'),
  icon_key: nullable(sql.string(64)),
  is_active: flag(true),
  /** A sandbox site: loopback redirect URIs allowed, its verifications marked sandbox and never counted. */
  sandbox: flag(false),
  deleted_at: nullable(sql.date()),
  created_at: stamp(),
  updated_at: stamp(),
}) {}
