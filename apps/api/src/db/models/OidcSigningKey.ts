import { nullable, plainTable, primaryKey, required, sql } from './columns';

/** A token signing key, encrypted at rest with a key derived from the master key (oidc/keys.ts). */
export class OidcSigningKey extends plainTable('oidc_signing_keys', {
  kid: primaryKey(sql.string(64)),
  alg: required(sql.string(16)),
  encrypted_jwk: required(sql.text()),
  created_at: required(sql.date()),
  /** When a newer key took over signing; the key stays published for verification until unpublish_after. */
  retired_at: nullable(sql.date()),
  unpublish_after: nullable(sql.date()),
}) {}
