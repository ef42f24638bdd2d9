import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

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
        id: { type: DataTypes.UUID, defaultValue: DataTypes.UUIDV4, primaryKey: true },
        partner_id: { type: DataTypes.UUID, allowNull: false },
        url: { type: DataTypes.STRING(2000), allowNull: false },
        events: { type: DataTypes.TEXT, allowNull: false },
        secret_sealed: { type: DataTypes.TEXT, allowNull: false },
        secret_hint: { type: DataTypes.STRING(8), allowNull: false },
        active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        disabled_reason: DataTypes.STRING(200),
        created_at: { type: DataTypes.DATE, allowNull: false },
        updated_at: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'webhook_endpoints', timestamps: false },
    );
    return WebhookEndpoint;
  }
}
