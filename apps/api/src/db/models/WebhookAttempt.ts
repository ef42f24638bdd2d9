import { nullable, plainTable, required, sql, uuidKey } from './columns';

/** The delivery log: one row per HTTP attempt (status, latency, the start of the receiver's answer). */
export class WebhookAttempt extends plainTable('webhook_attempts', {
  id: uuidKey(),
  delivery_id: required(sql.uuid()),
  attempt: required(sql.integer()),
  status_code: nullable(sql.integer()),
  error: nullable(sql.string(300)),
  latency_ms: required(sql.integer()),
  response_excerpt: nullable(sql.text()),
  created_at: required(sql.date()),
}) {}
