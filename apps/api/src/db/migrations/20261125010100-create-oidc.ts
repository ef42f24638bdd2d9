import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * OpenID Connect state (DESIGN.md §2, §4): every provider model except clients in one payload table, the signing
 * keys (encrypted), users' grants to sites as the product shows them, and the outbox of events partners receive.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('oidc_payloads', {
    model: { type: DataTypes.STRING(40), primaryKey: true },
    id: { type: DataTypes.STRING(128), primaryKey: true },
    payload: { type: DataTypes.TEXT, allowNull: false },
    grant_id: DataTypes.STRING(128),
    user_code: DataTypes.STRING(128),
    uid: DataTypes.STRING(128),
    expires_at: DataTypes.DATE,
    consumed_at: DataTypes.DATE,
  });
  await qi.addIndex('oidc_payloads', ['grant_id'], { name: 'oidc_payloads_grant_id' });
  await qi.addIndex('oidc_payloads', ['user_code'], { name: 'oidc_payloads_user_code' });
  await qi.addIndex('oidc_payloads', ['uid'], { name: 'oidc_payloads_uid' });
  await qi.addIndex('oidc_payloads', ['expires_at'], { name: 'oidc_payloads_expires_at' });

  await qi.createTable('oidc_signing_keys', {
    kid: { type: DataTypes.STRING(64), primaryKey: true },
    alg: { type: DataTypes.STRING(16), allowNull: false },
    /** AES-256-GCM of the private JWK: base64url(iv).base64url(tag).base64url(ciphertext). */
    encrypted_jwk: { type: DataTypes.TEXT, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
    retired_at: DataTypes.DATE,
    unpublish_after: DataTypes.DATE,
  });

  await qi.createTable('oauth_authorizations', {
    id: { type: DataTypes.STRING(128), primaryKey: true },
    user_id: { type: DataTypes.UUID, allowNull: false },
    partner_id: { type: DataTypes.UUID, allowNull: false },
    site_id: { type: DataTypes.UUID, allowNull: false },
    client_id: { type: DataTypes.STRING(64), allowNull: false },
    scopes: { type: DataTypes.TEXT, allowNull: false },
    age_threshold: DataTypes.INTEGER,
    jurisdiction: DataTypes.STRING(120),
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
    expires_at: { type: DataTypes.DATE, allowNull: false },
    last_used_at: DataTypes.DATE,
    revoked_at: DataTypes.DATE,
    revoked_reason: DataTypes.STRING(64),
  });
  await qi.addIndex('oauth_authorizations', ['user_id', 'created_at'], { name: 'oauth_authorizations_user' });
  await qi.addIndex('oauth_authorizations', ['user_id', 'client_id'], {
    name: 'oauth_authorizations_user_client',
  });
  await qi.addIndex('oauth_authorizations', ['site_id'], { name: 'oauth_authorizations_site' });
  await qi.addIndex('oauth_authorizations', ['partner_id', 'created_at'], {
    name: 'oauth_authorizations_partner',
  });

  await qi.createTable('event_outbox', {
    id: { type: DataTypes.UUID, primaryKey: true },
    partner_id: { type: DataTypes.UUID, allowNull: false },
    event: { type: DataTypes.STRING(64), allowNull: false },
    payload: { type: DataTypes.TEXT, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
    available_at: { type: DataTypes.DATE, allowNull: false },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    locked_until: DataTypes.DATE,
    delivered_at: DataTypes.DATE,
    last_error: DataTypes.TEXT,
  });
  await qi.addIndex('event_outbox', ['delivered_at', 'available_at'], { name: 'event_outbox_pending' });
  await qi.addIndex('event_outbox', ['partner_id', 'created_at'], { name: 'event_outbox_partner' });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('event_outbox');
  await qi.dropTable('oauth_authorizations');
  await qi.dropTable('oidc_signing_keys');
  await qi.dropTable('oidc_payloads');
};
