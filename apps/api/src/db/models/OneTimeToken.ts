import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { counter, required, stampedTable, uuidKey } from './columns';

export type OneTimeTokenPurpose =
  | 'password_reset'
  | 'email_verification'
  /** A new address the account asked to move to; applied when the link mailed there is opened. */
  | 'email_change'
  | 'phone_verification'
  | 'newsletter_confirm'
  | 'partner_email_verification'
  | 'partner_password_reset';

/** Single-use, expiring secrets sent by mail or SMS. Only a keyed hash is stored. */
export class OneTimeToken extends Model<
  InferAttributes<OneTimeToken>,
  InferCreationAttributes<OneTimeToken>
> {
  declare id: CreationOptional<string>;
  declare purpose: OneTimeTokenPurpose;
  declare subject_id: string;
  declare token_hash: string;
  /** What the token proves, e.g. the e-mail address or phone number it was sent to. */
  declare target: string | null;
  declare attempts: CreationOptional<number>;
  declare expires_at: Date;
  declare used_at: Date | null;
  declare created_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof OneTimeToken {
    OneTimeToken.init(
      {
        id: uuidKey(),
        purpose: required(DataTypes.STRING(32)),
        subject_id: required(DataTypes.STRING(64)),
        token_hash: required(DataTypes.STRING(64)),
        target: DataTypes.STRING(254),
        attempts: counter(),
        expires_at: required(DataTypes.DATE),
        used_at: DataTypes.DATE,
        created_at: DataTypes.DATE,
      },
      stampedTable(sequelize, 'one_time_tokens', { updatedAt: false }),
    );
    return OneTimeToken;
  }
}
