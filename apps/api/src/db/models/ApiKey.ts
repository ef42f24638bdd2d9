import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { required, stampedTable, uuidKey } from './columns';
import type { ApiKeyEnvironment } from '@attestly/contracts';

/** A partner API key (DESIGN.md §3). Only the SHA-256 of the key is stored; `prefix` is what screens show. */
export class ApiKey extends Model<InferAttributes<ApiKey>, InferCreationAttributes<ApiKey>> {
  declare id: CreationOptional<string>;
  declare partner_id: string;
  declare environment: ApiKeyEnvironment;
  declare prefix: string;
  declare key_hash: string;
  declare last_used_at: Date | null;
  declare revoked_at: Date | null;
  declare created_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof ApiKey {
    ApiKey.init(
      {
        id: uuidKey(),
        partner_id: required(DataTypes.UUID),
        environment: required(DataTypes.STRING(8)),
        prefix: required(DataTypes.STRING(24)),
        key_hash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
        last_used_at: DataTypes.DATE,
        revoked_at: DataTypes.DATE,
        created_at: DataTypes.DATE,
      },
      stampedTable(sequelize, 'api_keys', { updatedAt: false }),
    );
    return ApiKey;
  }
}
