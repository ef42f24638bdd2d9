import {
  DataTypes,
  Model,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { plainTable, required } from './columns';

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
        alg: required(DataTypes.STRING(16)),
        encrypted_jwk: required(DataTypes.TEXT),
        created_at: required(DataTypes.DATE),
        retired_at: DataTypes.DATE,
        unpublish_after: DataTypes.DATE,
      },
      plainTable(sequelize, 'oidc_signing_keys'),
    );
    return OidcSigningKey;
  }
}
