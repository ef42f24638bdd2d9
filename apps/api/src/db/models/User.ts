import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { flag, required, signInColumns, stampedTable, uuidKey } from './columns';

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<string>;
  /** Stored lower-cased; unique on LOWER(email) in the database as well. */
  declare email: string;
  declare password_hash: string;
  declare full_name: string;
  declare phone: CreationOptional<string | null>;
  declare country: CreationOptional<string | null>;
  declare state: CreationOptional<string | null>;
  declare city: CreationOptional<string | null>;
  declare email_verified_at: CreationOptional<Date | null>;
  declare phone_verified_at: CreationOptional<Date | null>;
  /** Phone number awaiting confirmation by SMS code; becomes `phone` once verified. */
  declare pending_phone: CreationOptional<string | null>;
  /** Key of the row in user_photos; part of the photo's URL, so a new upload gets a new URL. */
  declare profile_photo_key: CreationOptional<string | null>;
  /** Proven facts (DESIGN.md §5), kept here so every read of the profile is one row. */
  declare proven_min_age: CreationOptional<number | null>;
  declare age_verified_at: CreationOptional<Date | null>;
  declare age_verified_until: CreationOptional<Date | null>;
  declare location_country: CreationOptional<string | null>;
  declare location_state: CreationOptional<string | null>;
  declare location_verified_at: CreationOptional<Date | null>;
  declare location_verified_until: CreationOptional<Date | null>;
  declare identity_verified_at: CreationOptional<Date | null>;
  declare identity_verified_until: CreationOptional<Date | null>;
  declare is_active: CreationOptional<boolean>;
  declare is_partner: CreationOptional<boolean>;
  declare login_attempts: CreationOptional<number>;
  declare locked_until: CreationOptional<Date | null>;
  declare last_login_at: CreationOptional<Date | null>;
  declare deleted_at: CreationOptional<Date | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof User {
    User.init(
      {
        id: uuidKey(),
        email: required(DataTypes.STRING(254)),
        password_hash: required(DataTypes.STRING(200)),
        full_name: required(DataTypes.STRING(120)),
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
        is_active: flag(true),
        is_partner: flag(false),
        ...signInColumns(),
        deleted_at: DataTypes.DATE,
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      stampedTable(sequelize, 'users'),
    );
    return User;
  }
}
