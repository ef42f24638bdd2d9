import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

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
      },
      { sequelize, tableName: 'audit_logs', timestamps: false },
    );
    return AuditLog;
  }
}
