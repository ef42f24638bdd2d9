import { flag, nullable, plainTable, required, sql, uuidKey } from './columns';

/** A partner's webhook receiver (DESIGN.md §6): where events go, which ones, and the sealed signing secret. */
export class WebhookEndpoint extends plainTable('webhook_endpoints', {
  id: uuidKey(),
  partner_id: required(sql.uuid()),
  url: required(sql.string(2000)),
  /** JSON list of event names. */
  events: required(sql.text()),
  secret_sealed: required(sql.text()),
  secret_hint: required(sql.string(8)),
  active: flag(true),
  disabled_reason: nullable(sql.string(200)),
  created_at: required(sql.date()),
  updated_at: required(sql.date()),
}) {}
