import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/** Verification attempts (DESIGN.md §5) and the encrypted media kept only for manual review. */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('verifications', {
    id: { type: DataTypes.UUID, primaryKey: true },
    user_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    verification_type: { type: DataTypes.STRING(16), allowNull: false },
    verification_method: { type: DataTypes.STRING(32), allowNull: false },
    status: { type: DataTypes.STRING(16), allowNull: false },
    confidence_score: DataTypes.DOUBLE,
    age_threshold: DataTypes.INTEGER,
    needs_manual_review: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    message: DataTypes.STRING(500),
    result_details: { type: DataTypes.JSON, allowNull: false },
    document_analysis: DataTypes.JSON,
    review_notes: { type: DataTypes.JSON, allowNull: false },
    subject_fingerprint: DataTypes.STRING(64),
    partner_id: DataTypes.STRING(64),
    site_id: DataTypes.STRING(64),
    reviewed_at: DataTypes.DATE,
    reviewed_by: DataTypes.STRING(64),
    expires_at: DataTypes.DATE,
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('verifications', ['user_id', 'created_at'], { name: 'verifications_user_created' });
  await qi.addIndex('verifications', ['status', 'needs_manual_review'], {
    name: 'verifications_status_review',
  });
  await qi.addIndex('verifications', ['created_at'], { name: 'verifications_created_at' });
  await qi.addIndex('verifications', ['subject_fingerprint'], { name: 'verifications_subject_fingerprint' });
  await qi.addIndex('verifications', ['partner_id', 'created_at'], { name: 'verifications_partner_created' });

  await qi.createTable('verification_media', {
    id: { type: DataTypes.UUID, primaryKey: true },
    verification_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'verifications', key: 'id' },
      onDelete: 'CASCADE',
    },
    content_type: { type: DataTypes.STRING(64), allowNull: false },
    byte_length: { type: DataTypes.INTEGER, allowNull: false },
    iv: { type: DataTypes.BLOB, allowNull: false },
    auth_tag: { type: DataTypes.BLOB, allowNull: false },
    ciphertext: { type: DataTypes.BLOB, allowNull: false },
    purge_after: { type: DataTypes.DATE, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('verification_media', ['verification_id'], { name: 'verification_media_verification' });
  await qi.addIndex('verification_media', ['purge_after'], { name: 'verification_media_purge_after' });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('verification_media');
  await qi.dropTable('verifications');
};
