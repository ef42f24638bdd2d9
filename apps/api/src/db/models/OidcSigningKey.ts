import {
  DataTypes,
  Model,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

/** A token signing key, encrypted at rest with a key derived from the master key (oidc/keys.ts). */
export class OidcSigningKey extends Model<
  InferAttributes<OidcSigningKey>,
  InferCreationAttributes<OidcSigningKey>
> {
  declare kid: string;
  declare alg: string;
  declare encrypted_jwk: string;
  declare created_at: Date;
  /** When a newer key took over signing; the key stays published for verification until unpublish_after. */
  declare retired_at: Date | null;
  declare unpublish_after: Date | null;

  static initModel(sequelize: Sequelize): typeof OidcSigningKey {
    OidcSigningKey.init(
      {
        kid: { type: DataTypes.STRING(64), primaryKey: true },
        alg: { type: DataTypes.STRING(16), allowNull: false },
        encrypted_jwk: { type: DataTypes.TEXT, allowNull: false },
        created_at: { type: DataTypes.DATE, allowNull: false },
        retired_at: DataTypes.DATE,
        unpublish_after: DataTypes.DATE,
      },
      { sequelize, tableName: 'oidc_signing_keys', timestamps: false },
    );
    return OidcSigningKey;
  }
}
