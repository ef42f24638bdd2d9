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
 * Events partners receive by webhook (spec 01 §7: token.revoked, …), written in the same unit of work as the change
 * they describe (transactional outbox, modules/partners/webhooks `emitWebhookEvent`), so no event is lost to a crash. The
 * row's id is the event's stable id; one `webhook_deliveries` row per subscribed endpoint is queued with it
 * (`delivered_at`: when it was handed to that queue). Pruned after the retention period once settled.
 */
export class EventOutbox extends Model<InferAttributes<EventOutbox>, InferCreationAttributes<EventOutbox>> {
  declare id: CreationOptional<string>;
  declare partner_id: string;
  declare event: string;
  /** The webhook body as JSON text: {event, timestamp, data}. */
  declare payload: string;
  declare created_at: Date;
  declare available_at: Date;
  declare attempts: CreationOptional<number>;
  declare locked_until: Date | null;
  declare delivered_at: Date | null;
  declare last_error: string | null;

  static initModel(sequelize: Sequelize): typeof EventOutbox {
    EventOutbox.init(
      {
        id: uuidKey(),
        partner_id: required(DataTypes.UUID),
        event: required(DataTypes.STRING(64)),
        payload: required(DataTypes.TEXT),
        created_at: required(DataTypes.DATE),
        available_at: required(DataTypes.DATE),
        attempts: counter(),
        locked_until: DataTypes.DATE,
        delivered_at: DataTypes.DATE,
        last_error: DataTypes.TEXT,
      },
      plainTable(sequelize, 'event_outbox'),
    );
    return EventOutbox;
  }
}
