import {
  DataTypes,
  Model,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { plainTable, required } from './columns';

/** One row per oidc-provider model instance (sessions, interactions, codes, tokens, grants…); see oidc/adapter.ts. */
export class OidcPayload extends Model<InferAttributes<OidcPayload>, InferCreationAttributes<OidcPayload>> {
  declare model: string;
  declare id: string;
  /** The provider's payload as JSON text. */
  declare payload: string;
  declare grant_id: string | null;
  declare user_code: string | null;
  declare uid: string | null;
  declare expires_at: Date | null;
  declare consumed_at: Date | null;

  static initModel(sequelize: Sequelize): typeof OidcPayload {
    OidcPayload.init(
      {
        model: { type: DataTypes.STRING(40), primaryKey: true },
        id: { type: DataTypes.STRING(128), primaryKey: true },
        payload: required(DataTypes.TEXT),
        grant_id: DataTypes.STRING(128),
        user_code: DataTypes.STRING(128),
        uid: DataTypes.STRING(128),
        expires_at: DataTypes.DATE,
        consumed_at: DataTypes.DATE,
      },
      plainTable(sequelize, 'oidc_payloads'),
    );
    return OidcPayload;
  }
}
