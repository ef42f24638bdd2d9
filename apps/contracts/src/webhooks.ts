import * as v from 'valibot';
import { paging } from './fields';

/** Events a partner can subscribe a webhook to (spec 01 §7 "Partner"). `ping` is sent only by the test call. */
export const WEBHOOK_EVENTS = [
  'verification.completed',
  'verification.failed',
  'token.revoked',
  'token.expired',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export type WebhookEventType = WebhookEvent | 'ping';

export const WEBHOOK_SIGNATURE_HEADER = 'Attestly-Signature';
export const WEBHOOK_EVENT_ID_HEADER = 'Attestly-Event-Id';
/** How old a signed timestamp may be before a receiver refuses the delivery (replay window). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export const WEBHOOK_LIMITS = {
  endpointsPerPartner: 10,
  urlLength: 2000,
  secretMinLength: 16,
  secretMaxLength: 128,
  /** How much of a receiver's answer the delivery log keeps. */
  responseExcerptBytes: 500,
  timeoutMs: 10_000,
  /** Retries with backoff stop this long after the event (then the delivery is `failed`). */
  retryWindowMs: 24 * 3600_000,
} as const;

/** A webhook URL as an http(s) URL, or why it is not one: the first checks of every webhook URL, here and in the API. */
export function webhookHttpUrl(value: string): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Webhook URL must be a valid URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Webhook URL must use https';
  return url;
}

/**
 * Why a webhook URL is refused before any connection (the connect-time check of resolved addresses is the API's):
 * absolute http(s) URL, no credentials, no fragment. Whether plain http or a private host is allowed depends on the
 * operator's allowlist, so the API checks that.
 */
export function webhookUrlProblem(value: string): string | null {
  const url = webhookHttpUrl(value);
  if (typeof url === 'string') return url;
  if (url.username || url.password) return 'Webhook URL must not contain credentials';
  if (url.hash || value.includes('#')) return 'Webhook URL must not contain a fragment (#)';
  return null;
}

const webhookUrl = v.pipe(
  v.string((issue) =>
    issue.received === 'undefined' || issue.received === 'null' ? 'Webhook URL is required' : 'Must be text',
  ),
  v.trim(),
  v.nonEmpty('Webhook URL is required'),
  v.maxLength(WEBHOOK_LIMITS.urlLength, `Must be at most ${WEBHOOK_LIMITS.urlLength} characters`),
  v.check(
    (value) => webhookUrlProblem(value) === null,
    (issue) => webhookUrlProblem(String(issue.input)) ?? 'Invalid webhook URL',
  ),
);

const webhookEvents = v.pipe(
  v.array(
    v.picklist(WEBHOOK_EVENTS, `Unknown event: use ${WEBHOOK_EVENTS.join(', ')}`),
    'Events must be a list',
  ),
  v.minLength(1, 'Choose at least one event'),
  v.transform((list): WebhookEvent[] => WEBHOOK_EVENTS.filter((event) => list.includes(event))),
);

const webhookSecret = v.pipe(
  v.string('Secret must be text'),
  v.minLength(
    WEBHOOK_LIMITS.secretMinLength,
    `Secret must be at least ${WEBHOOK_LIMITS.secretMinLength} characters`,
  ),
  v.maxLength(
    WEBHOOK_LIMITS.secretMaxLength,
    `Secret must be at most ${WEBHOOK_LIMITS.secretMaxLength} characters`,
  ),
  v.regex(/^[\x21-\x7e]+$/, 'Secret must be printable ASCII without spaces'),
);

/** POST /partners/webhooks: the secret is generated when not given, and shown once. */
export const createWebhookBody = v.object({
  url: webhookUrl,
  events: webhookEvents,
  secret: v.optional(webhookSecret),
  active: v.optional(v.boolean('active must be true or false'), true),
});
export type CreateWebhookBody = v.InferInput<typeof createWebhookBody>;

/** PUT /partners/webhooks/{id}: any subset; `rotate_secret` issues a new secret (shown once). */
export const updateWebhookBody = v.object({
  url: v.optional(webhookUrl),
  events: v.optional(webhookEvents),
  secret: v.optional(webhookSecret),
  rotate_secret: v.optional(v.boolean('rotate_secret must be true or false'), false),
  active: v.optional(v.boolean('active must be true or false')),
});
export type UpdateWebhookBody = v.InferInput<typeof updateWebhookBody>;

/** Ids are checked by the API (an unknown or malformed id is a 404, not a validation error). */
export const webhookIdParams = v.object({ id: v.string() });
export const webhookDeliveryParams = v.object({ id: v.string(), deliveryId: v.string() });
export const webhookDeliveriesQuery = paging;

export interface WebhookView {
  id: string;
  url: string;
  events: WebhookEvent[];
  active: boolean;
  /** Why the endpoint was switched off by the system (e.g. the receiver answered 410 Gone). */
  disabled_reason: string | null;
  /** The last four characters, to tell secrets apart. */
  secret_hint: string;
  /** Present only in the answer that created the webhook or rotated its secret. */
  secret?: string;
  created_at: string;
  updated_at: string;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookAttemptView {
  attempt: number;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  response_excerpt: string | null;
  created_at: string;
}

export interface WebhookDeliveryView {
  id: string;
  event_id: string;
  event: WebhookEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  created_at: string;
  delivered_at: string | null;
  attempt_log: WebhookAttemptView[];
}

/** The body a receiver gets (signed as `t.body`). */
export interface WebhookPayload<T = Record<string, unknown>> {
  id: string;
  event: WebhookEventType;
  type: WebhookEventType;
  /** When the event happened (ISO 8601). */
  timestamp: string;
  data: T;
}
