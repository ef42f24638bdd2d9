import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Partner API keys (DESIGN.md §3: `X-API-Key`, hashed, shown once, sandbox and live kinds) and the sandbox flag on
 * verifications (results obtained with a sandbox key are marked and never count toward quotas or statistics).
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('api_keys', {
    id: { type: DataTypes.UUID, primaryKey: true },
    partner_id: {
      type: DataTypes.UUID,
      allowNull: false,
      references: { model: 'partners', key: 'id' },
      onDelete: 'CASCADE',
    },
    environment: { type: DataTypes.STRING(8), allowNull: false },
    prefix: { type: DataTypes.STRING(24), allowNull: false },
    key_hash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    last_used_at: DataTypes.DATE,
    revoked_at: DataTypes.DATE,
    created_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('api_keys', ['partner_id', 'created_at'], { name: 'api_keys_partner_created' });
  await qi.addColumn('verifications', 'sandbox', {
    type: DataTypes.BOOLEAN,
    allowNull: false,
    defaultValue: false,
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.removeColumn('verifications', 'sandbox');
  await qi.dropTable('api_keys');
};
