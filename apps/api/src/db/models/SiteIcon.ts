import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { required, stampedTable } from './columns';

/** A site's icon, shown on the consent screen; served at an unguessable URL (`key`) like profile photos. */
export class SiteIcon extends Model<InferAttributes<SiteIcon>, InferCreationAttributes<SiteIcon>> {
  declare site_id: string;
  declare key: string;
  declare content_type: string;
  declare bytes: Buffer;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof SiteIcon {
    SiteIcon.init(
      {
        site_id: { type: DataTypes.UUID, primaryKey: true },
        key: { type: DataTypes.STRING(64), allowNull: false, unique: true },
        content_type: required(DataTypes.STRING(32)),
        bytes: required(DataTypes.BLOB),
        updated_at: DataTypes.DATE,
      },
      stampedTable(sequelize, 'site_icons', { createdAt: false }),
    );
    return SiteIcon;
  }
}
