import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

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
        id: { type: DataTypes.UUID, defaultValue: DataTypes.UUIDV4, primaryKey: true },
        delivery_id: { type: DataTypes.UUID, allowNull: false },
        attempt: { type: DataTypes.INTEGER, allowNull: false },
        status_code: DataTypes.INTEGER,
        error: DataTypes.STRING(300),
        latency_ms: { type: DataTypes.INTEGER, allowNull: false },
        response_excerpt: DataTypes.TEXT,
        created_at: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'webhook_attempts', timestamps: false },
    );
    return WebhookAttempt;
  }
}
