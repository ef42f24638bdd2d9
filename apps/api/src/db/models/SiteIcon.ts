import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

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
        content_type: { type: DataTypes.STRING(32), allowNull: false },
        bytes: { type: DataTypes.BLOB, allowNull: false },
        updated_at: DataTypes.DATE,
      },
      { sequelize, tableName: 'site_icons', underscored: true, createdAt: false, updatedAt: 'updated_at' },
    );
    return SiteIcon;
  }
}
