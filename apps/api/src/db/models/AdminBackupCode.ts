import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { required, stampedTable, uuidKey } from './columns';

/** One single-use backup code of an administrator; only a keyed hash is stored. */
export class AdminBackupCode extends Model<
  InferAttributes<AdminBackupCode>,
  InferCreationAttributes<AdminBackupCode>
> {
  declare id: CreationOptional<string>;
  declare admin_id: string;
  declare code_hash: string;
  declare used_at: Date | null;
  declare created_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof AdminBackupCode {
    AdminBackupCode.init(
      {
        id: uuidKey(),
        admin_id: required(DataTypes.UUID),
        code_hash: required(DataTypes.STRING(64)),
        used_at: DataTypes.DATE,
        created_at: DataTypes.DATE,
      },
      stampedTable(sequelize, 'admin_backup_codes', { updatedAt: false }),
    );
    return AdminBackupCode;
  }
}
