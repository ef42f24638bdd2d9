import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/** Users, sessions of every account kind, one-time tokens, profile photos and rate-limit counters. */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('users', {
    id: { type: DataTypes.UUID, primaryKey: true },
    email: { type: DataTypes.STRING(254), allowNull: false },
    password_hash: { type: DataTypes.STRING(200), allowNull: false },
    full_name: { type: DataTypes.STRING(120), allowNull: false },
    phone: DataTypes.STRING(32),
    country: DataTypes.STRING(2),
    state: DataTypes.STRING(100),
    city: DataTypes.STRING(100),
    email_verified_at: DataTypes.DATE,
    phone_verified_at: DataTypes.DATE,
    pending_phone: DataTypes.STRING(32),
    profile_photo_key: DataTypes.STRING(64),
    proven_min_age: DataTypes.INTEGER,
    age_verified_at: DataTypes.DATE,
    age_verified_until: DataTypes.DATE,
    location_country: DataTypes.STRING(2),
    location_state: DataTypes.STRING(100),
    location_verified_at: DataTypes.DATE,
    location_verified_until: DataTypes.DATE,
    identity_verified_at: DataTypes.DATE,
    identity_verified_until: DataTypes.DATE,
    is_active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    is_partner: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    login_attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    locked_until: DataTypes.DATE,
    last_login_at: DataTypes.DATE,
    deleted_at: DataTypes.DATE,
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  // Case-insensitive uniqueness enforced by the database itself, not only by the service lower-casing input.
  await qi.sequelize.query('CREATE UNIQUE INDEX users_email_lower_unique ON users (LOWER(email))');
  await qi.addIndex('users', ['created_at'], { name: 'users_created_at' });

  await qi.createTable('sessions', {
    id: { type: DataTypes.UUID, primaryKey: true },
    kind: { type: DataTypes.STRING(16), allowNull: false },
    subject_id: { type: DataTypes.STRING(64), allowNull: false },
    token_hash: { type: DataTypes.STRING(64), allowNull: false },
    remember: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    ip_address: DataTypes.STRING(64),
    user_agent: DataTypes.STRING(512),
    created_at: { type: DataTypes.DATE, allowNull: false },
    last_used_at: DataTypes.DATE,
    expires_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('sessions', ['token_hash'], { name: 'sessions_token_hash_unique', unique: true });
  await qi.addIndex('sessions', ['kind', 'subject_id'], { name: 'sessions_kind_subject' });
  await qi.addIndex('sessions', ['expires_at'], { name: 'sessions_expires_at' });

  await qi.createTable('one_time_tokens', {
    id: { type: DataTypes.UUID, primaryKey: true },
    purpose: { type: DataTypes.STRING(32), allowNull: false },
    subject_id: { type: DataTypes.STRING(64), allowNull: false },
    token_hash: { type: DataTypes.STRING(64), allowNull: false },
    target: DataTypes.STRING(254),
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    expires_at: { type: DataTypes.DATE, allowNull: false },
    used_at: DataTypes.DATE,
    created_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('one_time_tokens', ['purpose', 'token_hash'], {
    name: 'one_time_tokens_purpose_hash',
    unique: true,
  });
  await qi.addIndex('one_time_tokens', ['purpose', 'subject_id'], {
    name: 'one_time_tokens_purpose_subject',
  });

  await qi.createTable('user_photos', {
    user_id: {
      type: DataTypes.UUID,
      primaryKey: true,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    key: { type: DataTypes.STRING(64), allowNull: false },
    content_type: { type: DataTypes.STRING(32), allowNull: false },
    bytes: { type: DataTypes.BLOB, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('user_photos', ['key'], { name: 'user_photos_key_unique', unique: true });

  // Fixed-window counters shared by every replica (DESIGN.md §2: nothing shared lives in process memory).
  await qi.createTable('rate_limits', {
    key: { type: DataTypes.STRING(200), primaryKey: true },
    window_start: { type: DataTypes.BIGINT, allowNull: false },
    count: { type: DataTypes.INTEGER, allowNull: false },
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('rate_limits');
  await qi.dropTable('user_photos');
  await qi.dropTable('one_time_tokens');
  await qi.dropTable('sessions');
  await qi.dropTable('users');
};
