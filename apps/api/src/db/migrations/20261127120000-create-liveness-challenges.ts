import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Server-issued liveness challenges (issue 23 item 1): the motions a video must show, drawn at random for one user
 * and kept here so that whichever replica receives the video can check it. A challenge is consumed by one
 * conditional update (`consumed_at IS NULL AND expires_at > now`, for its own user), so it answers at most one
 * upload however many replicas or racing requests present it.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('liveness_challenges', {
    id: { type: DataTypes.UUID, primaryKey: true },
    user_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    /** [{ action, start_seconds, end_seconds }] in order. */
    steps: { type: DataTypes.JSON, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
    expires_at: { type: DataTypes.DATE, allowNull: false },
    consumed_at: { type: DataTypes.DATE, allowNull: true },
  });
  await qi.addIndex('liveness_challenges', ['user_id'], { name: 'liveness_challenges_user' });
  // The purge of spent and expired challenges scans by expiry.
  await qi.addIndex('liveness_challenges', ['expires_at'], { name: 'liveness_challenges_expiry' });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('liveness_challenges');
};
