import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { required, stampedTable } from './columns';

/**
 * Profile photos live in the database, not on local disk, so any replica can serve them. They are served at an
 * unguessable URL (`key`) because an <img> cannot send a bearer token.
 */
export class UserPhoto extends Model<InferAttributes<UserPhoto>, InferCreationAttributes<UserPhoto>> {
  declare user_id: string;
  declare key: string;
  declare content_type: string;
  declare bytes: Buffer;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof UserPhoto {
    UserPhoto.init(
      {
        user_id: { type: DataTypes.UUID, primaryKey: true },
        key: { type: DataTypes.STRING(64), allowNull: false, unique: true },
        content_type: required(DataTypes.STRING(32)),
        bytes: required(DataTypes.BLOB),
        updated_at: DataTypes.DATE,
      },
      stampedTable(sequelize, 'user_photos', { createdAt: false }),
    );
    return UserPhoto;
  }
}
