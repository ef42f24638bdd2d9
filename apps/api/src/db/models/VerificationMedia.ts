import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { required, stampedTable, uuidKey } from './columns';

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
        id: uuidKey(),
        verification_id: required(DataTypes.UUID),
        content_type: required(DataTypes.STRING(64)),
        byte_length: required(DataTypes.INTEGER),
        iv: required(DataTypes.BLOB),
        auth_tag: required(DataTypes.BLOB),
        ciphertext: required(DataTypes.BLOB),
        purge_after: required(DataTypes.DATE),
        created_at: DataTypes.DATE,
      },
      stampedTable(sequelize, 'verification_media', { updatedAt: false }),
    );
    return VerificationMedia;
  }
}
