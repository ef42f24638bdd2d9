import { counter, nullable, plainTable, required, sql, uuidKey } from './columns';

/**
 * One event on its way to one endpoint: the delivery queue (claimed by replicas through `locked_until`) and the
 * delivery's outcome. Attempts are logged in `webhook_attempts`.
 */
export class WebhookDelivery extends plainTable('webhook_deliveries', {
  id: uuidKey(),
  event_id: required(sql.uuid()),
  endpoint_id: required(sql.uuid()),
  partner_id: required(sql.uuid()),
  event: required(sql.string(64)),
  /** pending, succeeded or failed. */
  status: required(sql.string(16)),
  attempts: counter(),
  next_attempt_at: nullable(sql.date()),
  give_up_at: required(sql.date()),
  locked_until: nullable(sql.date()),
  locked_by: nullable(sql.string(64)),
  last_status_code: nullable(sql.integer()),
  created_at: required(sql.date()),
  delivered_at: nullable(sql.date()),
  updated_at: required(sql.date()),
}) {}
