import type {
  WebhookAttemptView,
  WebhookDeliveryStatus,
  WebhookDeliveryView,
  WebhookEvent,
  WebhookEventType,
  WebhookView,
} from '@attestly/contracts';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../../db/models/index';

export function endpointEvents(row: Pick<WebhookEndpoint, 'events'>): WebhookEvent[] {
  return JSON.parse(row.events) as WebhookEvent[];
}

export function presentWebhook(row: WebhookEndpoint, secret?: string): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: endpointEvents(row),
    active: row.active,
    disabled_reason: row.disabled_reason,
    secret_hint: row.secret_hint,
    ...(secret ? { secret } : {}),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function presentAttempt(row: WebhookAttempt): WebhookAttemptView {
  return {
    attempt: row.attempt,
    status_code: row.status_code,
    error: row.error,
    latency_ms: row.latency_ms,
    response_excerpt: row.response_excerpt,
    created_at: row.created_at.toISOString(),
  };
}

export function presentDelivery(row: WebhookDelivery, attempts: WebhookAttempt[]): WebhookDeliveryView {
  return {
    id: row.id,
    event_id: row.event_id,
    event: row.event as WebhookEventType,
    status: row.status as WebhookDeliveryStatus,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? (row.next_attempt_at?.toISOString() ?? null) : null,
    last_status_code: row.last_status_code,
    created_at: row.created_at.toISOString(),
    delivered_at: row.delivered_at?.toISOString() ?? null,
    attempt_log: attempts.map(presentAttempt),
  };
}
