import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

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
        id: { type: DataTypes.UUID, defaultValue: DataTypes.UUIDV4, primaryKey: true },
        admin_id: { type: DataTypes.UUID, allowNull: false },
        code_hash: { type: DataTypes.STRING(64), allowNull: false },
        used_at: DataTypes.DATE,
        created_at: DataTypes.DATE,
      },
      {
        sequelize,
        tableName: 'admin_backup_codes',
        underscored: true,
        createdAt: 'created_at',
        updatedAt: false,
      },
    );
    return AdminBackupCode;
  }
}
