import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

/**
 * Media kept for a manual review, encrypted with AES-256-GCM under a key derived from the master key
 * (lib/media-crypto.ts). Only cases that need a person get a row; everything else is analysed in memory and
 * dropped. Rows are deleted when the case is reviewed or when `purge_after` passes, whichever comes first.
 */
export class VerificationMedia extends Model<
  InferAttributes<VerificationMedia>,
  InferCreationAttributes<VerificationMedia>
> {
  declare id: CreationOptional<string>;
  declare verification_id: string;
  declare content_type: string;
  declare byte_length: number;
  declare iv: Buffer;
  declare auth_tag: Buffer;
  declare ciphertext: Buffer;
  declare purge_after: Date;
  declare created_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof VerificationMedia {
    VerificationMedia.init(
      {
        id: { type: DataTypes.UUID, defaultValue: DataTypes.UUIDV4, primaryKey: true },
        verification_id: { type: DataTypes.UUID, allowNull: false },
        content_type: { type: DataTypes.STRING(64), allowNull: false },
        byte_length: { type: DataTypes.INTEGER, allowNull: false },
        iv: { type: DataTypes.BLOB, allowNull: false },
        auth_tag: { type: DataTypes.BLOB, allowNull: false },
        ciphertext: { type: DataTypes.BLOB, allowNull: false },
        purge_after: { type: DataTypes.DATE, allowNull: false },
        created_at: DataTypes.DATE,
      },
      {
        sequelize,
        tableName: 'verification_media',
        underscored: true,
        createdAt: 'created_at',
        updatedAt: false,
      },
    );
    return VerificationMedia;
  }
}
