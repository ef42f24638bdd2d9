import { nullable, plainTable, primaryKey, required, sql } from './columns';

/** One row per oidc-provider model instance (sessions, interactions, codes, tokens, grants…); see oidc/adapter.ts. */
export class OidcPayload extends plainTable('oidc_payloads', {
  model: primaryKey(sql.string(40)),
  id: primaryKey(sql.string(128)),
  /** The provider's payload as JSON text. */
  payload: required(sql.text()),
  grant_id: nullable(sql.string(128)),
  user_code: nullable(sql.string(128)),
  uid: nullable(sql.string(128)),
  expires_at: nullable(sql.date()),
  consumed_at: nullable(sql.date()),
}) {}
