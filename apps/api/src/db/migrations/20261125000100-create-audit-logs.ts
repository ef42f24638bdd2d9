import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('audit_logs', {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    event_type: { type: DataTypes.STRING(64), allowNull: false },
    severity: { type: DataTypes.STRING(16), allowNull: false },
    user_id: DataTypes.STRING(64),
    partner_id: DataTypes.STRING(64),
    admin_user_id: DataTypes.STRING(64),
    ip_address: DataTypes.STRING(64),
    user_agent: DataTypes.STRING(512),
    details: { type: DataTypes.TEXT, allowNull: false },
    created_at: { type: DataTypes.DATE, allowNull: false },
    prev_hash: { type: DataTypes.STRING(64), allowNull: false },
    hash: { type: DataTypes.STRING(64), allowNull: false },
  });
  await qi.addIndex('audit_logs', ['created_at'], { name: 'audit_logs_created_at' });
  await qi.addIndex('audit_logs', ['user_id', 'created_at'], { name: 'audit_logs_user' });
  await qi.addIndex('audit_logs', ['partner_id', 'created_at'], { name: 'audit_logs_partner' });
  await qi.addIndex('audit_logs', ['event_type', 'created_at'], { name: 'audit_logs_event' });
  // Two rows can never claim the same predecessor: a forked chain fails at insert time.
  await qi.addIndex('audit_logs', ['prev_hash'], { name: 'audit_logs_prev_hash_unique', unique: true });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('audit_logs');
};
