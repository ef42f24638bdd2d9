import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import { plainTable, required, uuidKey } from './columns';

/** The delivery log: one row per HTTP attempt (status, latency, the start of the receiver's answer). */
export class WebhookAttempt extends Model<
  InferAttributes<WebhookAttempt>,
  InferCreationAttributes<WebhookAttempt>
> {
  declare id: CreationOptional<string>;
  declare delivery_id: string;
  declare attempt: number;
  declare status_code: number | null;
  declare error: string | null;
  declare latency_ms: number;
  declare response_excerpt: string | null;
  declare created_at: Date;

  static initModel(sequelize: Sequelize): typeof WebhookAttempt {
    WebhookAttempt.init(
      {
        id: uuidKey(),
        delivery_id: required(DataTypes.UUID),
        attempt: required(DataTypes.INTEGER),
        status_code: DataTypes.INTEGER,
        error: DataTypes.STRING(300),
        latency_ms: required(DataTypes.INTEGER),
        response_excerpt: DataTypes.TEXT,
        created_at: required(DataTypes.DATE),
      },
      plainTable(sequelize, 'webhook_attempts'),
    );
    return WebhookAttempt;
  }
}
