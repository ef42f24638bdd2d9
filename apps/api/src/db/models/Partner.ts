import { DEFAULT_PLAN } from '@attestly/contracts';
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { required, signInColumns, stampedTable, uuidKey } from './columns';

/** A partner business account (spec 01 §1, §3); separate credentials from end users (spec 01 §6). */
export class Partner extends Model<InferAttributes<Partner>, InferCreationAttributes<Partner>> {
  declare id: CreationOptional<string>;
  /** Stored lower-cased; unique on LOWER(email) in the database as well. */
  declare email: string;
  declare password_hash: string;
  declare company_name: string;
  declare contact_name: string | null;
  declare phone: string | null;
  declare website: string | null;
  declare business_type: string | null;
  /** active, suspended or pending_verification (spec 02 "Partner status"). */
  declare status: CreationOptional<string>;
  declare plan: CreationOptional<string>;
  declare login_attempts: CreationOptional<number>;
  declare locked_until: Date | null;
  declare last_login_at: Date | null;
  /** When the partner opened the verification link sent at registration; null until then. */
  declare email_verified_at: CreationOptional<Date | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof Partner {
    Partner.init(
      {
        id: uuidKey(),
        email: required(DataTypes.STRING(254)),
        password_hash: required(DataTypes.STRING(200)),
        company_name: required(DataTypes.STRING(200)),
        contact_name: DataTypes.STRING(120),
        phone: DataTypes.STRING(32),
        website: DataTypes.STRING(300),
        business_type: DataTypes.STRING(40),
        status: { type: DataTypes.STRING(32), allowNull: false, defaultValue: 'active' },
        plan: { type: DataTypes.STRING(32), allowNull: false, defaultValue: DEFAULT_PLAN },
        ...signInColumns(),
        email_verified_at: DataTypes.DATE,
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      stampedTable(sequelize, 'partners'),
    );
    return Partner;
  }
}
