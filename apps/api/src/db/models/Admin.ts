import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { counter, required, signInColumns, stampedTable, uuidKey } from './columns';

/** A back-office administrator (spec 02 §6): password plus mandatory TOTP. */
export class Admin extends Model<InferAttributes<Admin>, InferCreationAttributes<Admin>> {
  declare id: CreationOptional<string>;
  /** Stored lower-cased; unique on LOWER(email) in the database as well. */
  declare email: string;
  declare password_hash: string;
  declare full_name: string | null;
  declare status: CreationOptional<'active' | 'disabled'>;
  declare totp_secret: string | null;
  declare totp_enabled_at: Date | null;
  declare totp_last_step: CreationOptional<number>;
  declare totp_failures: CreationOptional<number>;
  declare pending_2fa_hash: string | null;
  declare pending_2fa_expires_at: Date | null;
  declare login_attempts: CreationOptional<number>;
  declare locked_until: Date | null;
  declare last_login_at: Date | null;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof Admin {
    Admin.init(
      {
        id: uuidKey(),
        email: required(DataTypes.STRING(254)),
        password_hash: required(DataTypes.STRING(200)),
        full_name: DataTypes.STRING(120),
        status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'active' },
        totp_secret: DataTypes.TEXT,
        totp_enabled_at: DataTypes.DATE,
        totp_last_step: {
          type: DataTypes.BIGINT,
          allowNull: false,
          defaultValue: 0,
          // PostgreSQL returns BIGINT as text.
          get(this: Admin) {
            return Number(this.getDataValue('totp_last_step'));
          },
        },
        totp_failures: counter(),
        pending_2fa_hash: DataTypes.STRING(64),
        pending_2fa_expires_at: DataTypes.DATE,
        ...signInColumns(),
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      stampedTable(sequelize, 'admins'),
    );
    return Admin;
  }
}
