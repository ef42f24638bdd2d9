import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { plainTable, required } from './columns';

/** Append-only and hash-chained: `hash = SHA-256(prev_hash ‖ canonical row)`; see modules/shared/audit. */
export class AuditLog extends Model<InferAttributes<AuditLog>, InferCreationAttributes<AuditLog>> {
  declare id: CreationOptional<number>;
  declare event_type: string;
  declare severity: string;
  declare user_id: string | null;
  declare partner_id: string | null;
  declare admin_user_id: string | null;
  declare ip_address: string | null;
  declare user_agent: string | null;
  declare details: string;
  declare created_at: Date;
  declare prev_hash: string;
  declare hash: string;

  static initModel(sequelize: Sequelize): typeof AuditLog {
    AuditLog.init(
      {
        id: { type: DataTypes.BIGINT, autoIncrement: true, primaryKey: true },
        event_type: required(DataTypes.STRING(64)),
        severity: required(DataTypes.STRING(16)),
        user_id: DataTypes.STRING(64),
        partner_id: DataTypes.STRING(64),
        admin_user_id: DataTypes.STRING(64),
        ip_address: DataTypes.STRING(64),
        user_agent: DataTypes.STRING(512),
        details: required(DataTypes.TEXT),
        created_at: required(DataTypes.DATE),
        prev_hash: required(DataTypes.STRING(64)),
        hash: required(DataTypes.STRING(64)),
      },
      plainTable(sequelize, 'audit_logs'),
    );
    return AuditLog;
  }
}
