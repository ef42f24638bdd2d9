import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { required, stampedTable } from './columns';
import type { Scope } from '@attestly/contracts';

/**
 * A user's grant to a partner site as the product shows it (the user's "tokens", DESIGN.md §4; the back office's
 * "OAuth authorizations"). The id is the provider's grant id. The provider's own Grant payload is deleted on
 * revocation; this row stays, marked revoked, as the user's history.
 */
export class OAuthAuthorization extends Model<
  InferAttributes<OAuthAuthorization>,
  InferCreationAttributes<OAuthAuthorization>
> {
  declare id: string;
  declare user_id: string;
  declare partner_id: string;
  declare site_id: string;
  declare client_id: string;
  declare scopes: Scope[];
  declare age_threshold: number | null;
  declare jurisdiction: string | null;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
  declare expires_at: Date;
  declare last_used_at: Date | null;
  declare revoked_at: Date | null;
  declare revoked_reason: string | null;

  static initModel(sequelize: Sequelize): typeof OAuthAuthorization {
    OAuthAuthorization.init(
      {
        id: { type: DataTypes.STRING(128), primaryKey: true },
        user_id: required(DataTypes.UUID),
        partner_id: required(DataTypes.UUID),
        site_id: required(DataTypes.UUID),
        client_id: required(DataTypes.STRING(64)),
        scopes: {
          type: DataTypes.TEXT,
          allowNull: false,
          get(this: OAuthAuthorization): Scope[] {
            const raw = this.getDataValue('scopes') as unknown as string | null;
            return raw ? (JSON.parse(raw) as Scope[]) : [];
          },
          set(this: OAuthAuthorization, value: Scope[]) {
            this.setDataValue('scopes', JSON.stringify(value) as unknown as Scope[]);
          },
        },
        age_threshold: DataTypes.INTEGER,
        jurisdiction: DataTypes.STRING(120),
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
        expires_at: required(DataTypes.DATE),
        last_used_at: DataTypes.DATE,
        revoked_at: DataTypes.DATE,
        revoked_reason: DataTypes.STRING(64),
      },
      stampedTable(sequelize, 'oauth_authorizations'),
    );
    return OAuthAuthorization;
  }
}
