import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { required, stampedTable, uuidKey } from './columns';

/** An administrator's flag on a user (spec 02 "Flag request"); open while `resolved_at` is null. */
export class UserFlag extends Model<InferAttributes<UserFlag>, InferCreationAttributes<UserFlag>> {
  declare id: CreationOptional<string>;
  declare user_id: string;
  declare reason: string;
  declare priority: string;
  declare reviewer_notes: string | null;
  declare flagged_by: string | null;
  declare created_at: CreationOptional<Date>;
  declare resolved_at: Date | null;
  declare resolved_by: string | null;
  declare resolution_notes: string | null;

  static initModel(sequelize: Sequelize): typeof UserFlag {
    UserFlag.init(
      {
        id: uuidKey(),
        user_id: required(DataTypes.UUID),
        reason: required(DataTypes.STRING(500)),
        priority: required(DataTypes.STRING(16)),
        reviewer_notes: DataTypes.TEXT,
        flagged_by: DataTypes.STRING(64),
        created_at: DataTypes.DATE,
        resolved_at: DataTypes.DATE,
        resolved_by: DataTypes.STRING(64),
        resolution_notes: DataTypes.TEXT,
      },
      stampedTable(sequelize, 'user_flags', { updatedAt: false }),
    );
    return UserFlag;
  }
}
