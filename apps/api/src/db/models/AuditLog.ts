import { DataTypes } from 'sequelize';
import { nullable, plainTable, required, sql, type Column } from './columns';

/** Append-only and hash-chained: `hash = SHA-256(prev_hash ‖ canonical row)`; see modules/shared/audit. */
export class AuditLog extends plainTable('audit_logs', {
  id: { type: DataTypes.BIGINT, autoIncrement: true, primaryKey: true } as Column<number, true>,
  event_type: required(sql.string(64)),
  severity: required(sql.string(16)),
  user_id: nullable(sql.string(64)),
  partner_id: nullable(sql.string(64)),
  admin_user_id: nullable(sql.string(64)),
  ip_address: nullable(sql.string(64)),
  user_agent: nullable(sql.string(512)),
  details: required(sql.text()),
  created_at: required(sql.date()),
  prev_hash: required(sql.string(64)),
  hash: required(sql.string(64)),
}) {}
