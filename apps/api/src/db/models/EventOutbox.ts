import { counter, nullable, plainTable, required, sql, uuidKey } from './columns';

/**
 * Events partners receive by webhook (spec 01 §7: token.revoked, …), written in the same unit of work as the change
 * they describe (transactional outbox, modules/partners/webhooks `emitWebhookEvent`), so no event is lost to a crash. The
 * row's id is the event's stable id; one `webhook_deliveries` row per subscribed endpoint is queued with it
 * (`delivered_at`: when it was handed to that queue). Pruned after the retention period once settled.
 */
export class EventOutbox extends plainTable('event_outbox', {
  id: uuidKey(),
  partner_id: required(sql.uuid()),
  event: required(sql.string(64)),
  /** The webhook body as JSON text: {event, timestamp, data}. */
  payload: required(sql.text()),
  created_at: required(sql.date()),
  available_at: required(sql.date()),
  attempts: counter(),
  locked_until: nullable(sql.date()),
  delivered_at: nullable(sql.date()),
  last_error: nullable(sql.text()),
}) {}
