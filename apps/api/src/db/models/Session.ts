import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { flag, required, stampedTable, uuidKey } from './columns';
import type { AccountKind } from '@attestly/contracts';

/** A bearer session of any account kind (DESIGN.md §3). Only the SHA-256 of the token is stored. */
export class Session extends Model<InferAttributes<Session>, InferCreationAttributes<Session>> {
  declare id: CreationOptional<string>;
  declare kind: AccountKind;
  declare subject_id: string;
  declare token_hash: string;
  declare remember: boolean;
  declare ip_address: string | null;
  declare user_agent: string | null;
  declare created_at: CreationOptional<Date>;
  declare last_used_at: Date | null;
  declare expires_at: Date;

  static initModel(sequelize: Sequelize): typeof Session {
    Session.init(
      {
        id: uuidKey(),
        kind: required(DataTypes.STRING(16)),
        subject_id: required(DataTypes.STRING(64)),
        token_hash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
        remember: flag(false),
        ip_address: DataTypes.STRING(64),
        user_agent: DataTypes.STRING(512),
        created_at: DataTypes.DATE,
        last_used_at: DataTypes.DATE,
        expires_at: required(DataTypes.DATE),
      },
      stampedTable(sequelize, 'sessions', { updatedAt: false }),
    );
    return Session;
  }
}
