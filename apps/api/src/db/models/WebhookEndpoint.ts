import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { flag, plainTable, required, uuidKey } from './columns';

/** A partner's webhook receiver (DESIGN.md §6): where events go, which ones, and the sealed signing secret. */
export class WebhookEndpoint extends Model<
  InferAttributes<WebhookEndpoint>,
  InferCreationAttributes<WebhookEndpoint>
> {
  declare id: CreationOptional<string>;
  declare partner_id: string;
  declare url: string;
  /** JSON list of event names. */
  declare events: string;
  declare secret_sealed: string;
  declare secret_hint: string;
  declare active: CreationOptional<boolean>;
  declare disabled_reason: string | null;
  declare created_at: Date;
  declare updated_at: Date;

  static initModel(sequelize: Sequelize): typeof WebhookEndpoint {
    WebhookEndpoint.init(
      {
        id: uuidKey(),
        partner_id: required(DataTypes.UUID),
        url: required(DataTypes.STRING(2000)),
        events: required(DataTypes.TEXT),
        secret_sealed: required(DataTypes.TEXT),
        secret_hint: required(DataTypes.STRING(8)),
        active: flag(true),
        disabled_reason: DataTypes.STRING(200),
        created_at: required(DataTypes.DATE),
        updated_at: required(DataTypes.DATE),
      },
      plainTable(sequelize, 'webhook_endpoints'),
    );
    return WebhookEndpoint;
  }
}
