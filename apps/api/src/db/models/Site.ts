import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { flag, required, stampedTable, uuidKey } from './columns';
import type { ClientType, Scope } from '@attestly/contracts';

const jsonList = <T>(column: string) => ({
  type: DataTypes.TEXT,
  allowNull: false,
  get(this: Model): T[] {
    const raw = this.getDataValue(column) as string | null;
    return raw ? (JSON.parse(raw) as T[]) : [];
  },
  set(this: Model, value: T[]) {
    this.setDataValue(column, JSON.stringify(value));
  },
});

/**
 * A partner's site, which is also an OpenID Connect client (DESIGN.md §4). The client secret is never stored:
 * only a keyed hash of it (see modules/partners/sites/service.ts), so a database leak reveals no usable secret.
 * Deleting a site keeps the row (deleted_at) so users' token history can still name it.
 */
export class Site extends Model<InferAttributes<Site>, InferCreationAttributes<Site>> {
  declare id: CreationOptional<string>;
  declare partner_id: string;
  declare client_id: string;
  declare client_type: ClientType;
  declare client_secret_hash: string | null;
  declare site_name: string;
  declare domain: string;
  declare description: string | null;
  declare redirect_uris: string[];
  declare allowed_scopes: Scope[];
  declare icon_key: string | null;
  declare is_active: CreationOptional<boolean>;
  /** A sandbox site: loopback redirect URIs allowed, its verifications marked sandbox and never counted. */
  declare sandbox: CreationOptional<boolean>;
  declare deleted_at: Date | null;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): typeof Site {
    Site.init(
      {
        id: uuidKey(),
        partner_id: required(DataTypes.UUID),
        client_id: { type: DataTypes.STRING(64), allowNull: false, unique: true },
        client_type: required(DataTypes.STRING(16)),
        client_secret_hash: DataTypes.STRING(64),
        site_name: required(DataTypes.STRING(120)),
        domain: required(DataTypes.STRING(253)),
        description: DataTypes.TEXT,
        redirect_uris: jsonList<string>('redirect_uris'),
        allowed_scopes: jsonList<Scope>('allowed_scopes'),
        icon_key: DataTypes.STRING(64),
        is_active: flag(true),
        sandbox: flag(false),
        deleted_at: DataTypes.DATE,
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      stampedTable(sequelize, 'sites'),
    );
    return Site;
  }
}
