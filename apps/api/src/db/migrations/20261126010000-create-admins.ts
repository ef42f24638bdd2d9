import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Back-office administrators with mandatory TOTP (spec 02 §4, §6), their single-use backup codes, user flags
 * raised by administrators, and the indexes the admin lists and filters need (issue 9 "Performance").
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('admins', {
    id: { type: DataTypes.UUID, primaryKey: true },
    email: { type: DataTypes.STRING(254), allowNull: false },
    password_hash: { type: DataTypes.STRING(200), allowNull: false },
    full_name: DataTypes.STRING(120),
    status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'active' },
    /** AES-256-GCM of the base32 secret under an HKDF key of the master key: iv.tag.ciphertext (base64url). */
    totp_secret: DataTypes.TEXT,
    totp_enabled_at: DataTypes.DATE,
    /** The RFC 6238 time step of the last accepted code: a code of this step or earlier is refused. */
    totp_last_step: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
    totp_failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    /** SHA-256 of the temp_token issued after the password (one outstanding per admin). */
    pending_2fa_hash: DataTypes.STRING(64),
    pending_2fa_expires_at: DataTypes.DATE,
    login_attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    locked_until: DataTypes.DATE,
    last_login_at: DataTypes.DATE,
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.sequelize.query('CREATE UNIQUE INDEX admins_email_lower_unique ON admins (LOWER(email))');
  await qi.addIndex('admins', ['pending_2fa_hash'], { name: 'admins_pending_2fa_hash' });

  await qi.createTable('admin_backup_codes', {
    id: { type: DataTypes.UUID, primaryKey: true },
    admin_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'admins', key: 'id' },
      onDelete: 'CASCADE',
    },
    code_hash: { type: DataTypes.STRING(64), allowNull: false },
    used_at: DataTypes.DATE,
    created_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('admin_backup_codes', ['admin_id', 'code_hash'], {
    name: 'admin_backup_codes_admin_code_unique',
    unique: true,
  });

  await qi.createTable('user_flags', {
    id: { type: DataTypes.UUID, primaryKey: true },
    user_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    reason: { type: DataTypes.STRING(500), allowNull: false },
    priority: { type: DataTypes.STRING(16), allowNull: false },
    reviewer_notes: DataTypes.TEXT,
    flagged_by: DataTypes.STRING(64),
    created_at: { type: DataTypes.DATE, allowNull: false },
    resolved_at: DataTypes.DATE,
    resolved_by: DataTypes.STRING(64),
    resolution_notes: DataTypes.TEXT,
  });
  // At most one open flag per user, whatever races (a partial unique index: SQLite and PostgreSQL alike).
  await qi.sequelize.query(
    'CREATE UNIQUE INDEX user_flags_one_open ON user_flags (user_id) WHERE resolved_at IS NULL',
  );
  await qi.addIndex('user_flags', ['user_id', 'resolved_at'], { name: 'user_flags_user_resolved' });

  // The review queue: needs_manual_review first, newest first, optionally by status, type or method.
  await qi.addIndex('verifications', ['needs_manual_review', 'created_at'], {
    name: 'verifications_review_created',
  });
  await qi.addIndex('verifications', ['status', 'created_at'], { name: 'verifications_status_created' });
  await qi.addIndex('verifications', ['verification_type', 'created_at'], {
    name: 'verifications_type_created',
  });
  await qi.addIndex('verifications', ['verification_method', 'created_at'], {
    name: 'verifications_method_created',
  });
  await qi.addIndex('audit_logs', ['admin_user_id', 'created_at'], { name: 'audit_logs_admin' });
  await qi.addIndex('audit_logs', ['severity', 'created_at'], { name: 'audit_logs_severity' });
  await qi.addIndex('users', ['country', 'created_at'], { name: 'users_country_created' });
  await qi.addIndex('oauth_authorizations', ['created_at'], { name: 'oauth_authorizations_created' });
  await qi.addIndex('partners', ['created_at'], { name: 'partners_created_at' });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.removeIndex('partners', 'partners_created_at');
  await qi.removeIndex('oauth_authorizations', 'oauth_authorizations_created');
  await qi.removeIndex('users', 'users_country_created');
  await qi.removeIndex('audit_logs', 'audit_logs_severity');
  await qi.removeIndex('audit_logs', 'audit_logs_admin');
  await qi.removeIndex('verifications', 'verifications_method_created');
  await qi.removeIndex('verifications', 'verifications_type_created');
  await qi.removeIndex('verifications', 'verifications_status_created');
  await qi.removeIndex('verifications', 'verifications_review_created');
  await qi.dropTable('user_flags');
  await qi.dropTable('admin_backup_codes');
  await qi.dropTable('admins');
};
