import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { counter, plainTable, required, uuidKey } from './columns';

/**
 * One event on its way to one endpoint: the delivery queue (claimed by replicas through `locked_until`) and the
 * delivery's outcome. Attempts are logged in `webhook_attempts`.
 */
export class WebhookDelivery extends Model<
  InferAttributes<WebhookDelivery>,
  InferCreationAttributes<WebhookDelivery>
> {
  declare id: CreationOptional<string>;
  declare event_id: string;
  declare endpoint_id: string;
  declare partner_id: string;
  declare event: string;
  /** pending, succeeded or failed. */
  declare status: string;
  declare attempts: CreationOptional<number>;
  declare next_attempt_at: Date | null;
  declare give_up_at: Date;
  declare locked_until: Date | null;
  declare locked_by: string | null;
  declare last_status_code: number | null;
  declare created_at: Date;
  declare delivered_at: Date | null;
  declare updated_at: Date;

  static initModel(sequelize: Sequelize): typeof WebhookDelivery {
    WebhookDelivery.init(
      {
        id: uuidKey(),
        event_id: required(DataTypes.UUID),
        endpoint_id: required(DataTypes.UUID),
        partner_id: required(DataTypes.UUID),
        event: required(DataTypes.STRING(64)),
        status: required(DataTypes.STRING(16)),
        attempts: counter(),
        next_attempt_at: DataTypes.DATE,
        give_up_at: required(DataTypes.DATE),
        locked_until: DataTypes.DATE,
        locked_by: DataTypes.STRING(64),
        last_status_code: DataTypes.INTEGER,
        created_at: required(DataTypes.DATE),
        delivered_at: DataTypes.DATE,
        updated_at: required(DataTypes.DATE),
      },
      plainTable(sequelize, 'webhook_deliveries'),
    );
    return WebhookDelivery;
  }
}
