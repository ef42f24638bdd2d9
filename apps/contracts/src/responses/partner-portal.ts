import * as v from 'valibot';
import { PLAN_IDS, SUBSCRIPTION_STATUSES, type PlanOffer, type SubscriptionView } from '../billing';
import {
  API_KEY_ENVIRONMENTS,
  type ApiKeyCreated,
  type ApiKeyView,
  type IntegrationTestResult,
  type PartnerAuditEntry,
  type PartnerStats,
} from '../partner-portal';
import {
  WEBHOOK_EVENTS,
  type WebhookAttemptView,
  type WebhookDeliveryView,
  type WebhookView,
} from '../webhooks';
import { agree, isoDate, jsonObject, nullableIsoDate, type Same } from './common';
import { partnerProfileSchema } from './partners';

/** Answers of the partner portal's endpoints: e-mail verification, webhooks, API keys, statistics, billing. */
export const partnerEmailVerifiedSchema = v.object({ message: v.string(), partner: partnerProfileSchema });

// Webhooks

export const webhookSchema = v.object({
  id: v.string(),
  url: v.string(),
  events: v.array(v.picklist(WEBHOOK_EVENTS)),
  active: v.boolean(),
  disabled_reason: v.nullable(v.string()),
  secret_hint: v.string(),
  secret: v.pipe(
    v.optional(v.string()),
    v.description('Only in the answer that created the webhook or rotated its secret'),
  ),
  created_at: isoDate,
  updated_at: isoDate,
});

export const webhookListSchema = v.object({ webhooks: v.array(webhookSchema), total_count: v.number() });

export const webhookAttemptSchema = v.object({
  attempt: v.number(),
  status_code: v.nullable(v.number()),
  error: v.nullable(v.string()),
  latency_ms: v.number(),
  response_excerpt: v.nullable(v.string()),
  created_at: isoDate,
});

export const webhookDeliverySchema = v.object({
  id: v.string(),
  event_id: v.string(),
  event: v.picklist([...WEBHOOK_EVENTS, 'ping']),
  status: v.picklist(['pending', 'succeeded', 'failed']),
  attempts: v.number(),
  next_attempt_at: nullableIsoDate,
  last_status_code: v.nullable(v.number()),
  created_at: isoDate,
  delivered_at: nullableIsoDate,
  attempt_log: v.array(webhookAttemptSchema),
});

export const webhookDeliveryListSchema = v.object({
  deliveries: v.array(webhookDeliverySchema),
  total_count: v.number(),
});

export const webhookTestResultSchema = v.object({
  success: v.boolean(),
  status_code: v.nullable(v.number()),
  latency_ms: v.number(),
  error: v.nullable(v.string()),
  response_excerpt: v.nullable(v.string()),
  delivery: webhookDeliverySchema,
});

// API keys

export const apiKeySchema = v.object({
  id: v.string(),
  environment: v.picklist(API_KEY_ENVIRONMENTS),
  prefix: v.pipe(v.string(), v.description('The first characters of the key, enough to tell keys apart')),
  created_at: isoDate,
  last_used_at: nullableIsoDate,
});

export const apiKeyListSchema = v.object({ api_keys: v.array(apiKeySchema), total_count: v.number() });

export const apiKeyCreatedSchema = v.object({
  ...apiKeySchema.entries,
  api_key: v.pipe(v.string(), v.description('The key itself, shown in this answer only')),
});

// Statistics and audit log

export const partnerStatsSchema = v.object({
  total_sites: v.number(),
  total_verifications: v.number(),
  successful_verifications: v.number(),
  failed_verifications: v.number(),
  success_rate: v.nullable(v.number()),
  monthly_usage: v.object({ current_month: v.number(), previous_month: v.number() }),
  trend: v.object({
    current_period: v.number(),
    previous_period: v.number(),
    change_percent: v.nullable(v.number()),
  }),
  plan: v.string(),
  active_tokens: v.number(),
  revoked_tokens: v.number(),
  avg_response_time_ms: v.nullable(v.number()),
  top_countries: v.array(
    v.object({ country: v.string(), verifications: v.number(), percentage: v.number() }),
  ),
  recent_verifications: v.array(
    v.object({
      id: v.string(),
      type: v.picklist(['verification', 'token_revocation']),
      user: v.pipe(v.string(), v.description('The pairwise subject the partner knows the user by')),
      location: v.nullable(v.string()),
      status: v.picklist(['success', 'failed', 'pending']),
      verification_type: v.nullable(v.string()),
      site_id: v.nullable(v.string()),
      sandbox: v.boolean(),
      timestamp: isoDate,
    }),
  ),
  sandbox_verifications: v.number(),
  verified_at_consent: v.number(),
});

export const partnerAuditEntrySchema = v.object({
  id: v.string(),
  event: v.string(),
  event_type: v.string(),
  severity: v.string(),
  timestamp: isoDate,
  user_id: v.nullable(v.string()),
  ip_address: v.nullable(v.string()),
  user_agent: v.nullable(v.string()),
  details: jsonObject,
});

export const partnerAuditListSchema = v.object({
  audit_logs: v.array(partnerAuditEntrySchema),
  total_count: v.number(),
});

export const integrationTestResultSchema = v.object({
  success: v.boolean(),
  message: v.string(),
  checks: v.array(
    v.object({ name: v.string(), ok: v.boolean(), detail: v.string(), duration_ms: v.number() }),
  ),
  details: v.object({
    domain: v.string(),
    redirectUri: v.string(),
    scopes: v.array(v.string()),
    responseTime: v.number(),
  }),
  error: v.optional(v.string()),
});

// Billing

export const planSchema = v.object({
  id: v.picklist(PLAN_IDS),
  name: v.string(),
  price: v.pipe(
    v.nullable(v.number()),
    v.description(
      'USD per month; null while online billing (Stripe) is off and plans are assigned by operators',
    ),
  ),
  verifications: v.pipe(v.number(), v.description('Billable verifications per calendar month (UTC)')),
  rate_limit_per_minute: v.number(),
  features: v.array(v.string()),
  is_popular: v.boolean(),
});

export const planListSchema = v.object({ data: v.object({ plans: v.array(planSchema) }) });

export const subscriptionSchema = v.object({
  current_plan: v.object({ id: v.picklist(PLAN_IDS), name: v.string(), price: v.nullable(v.number()) }),
  subscription_status: v.picklist(SUBSCRIPTION_STATUSES),
  next_billing_date: nullableIsoDate,
  period_start: isoDate,
  period_end: isoDate,
  usage: v.object({
    current_month_verifications: v.number(),
    verifications_limit: v.number(),
    usage_percentage: v.number(),
  }),
  billing_enabled: v.boolean(),
  can_manage: v.boolean(),
});

export const checkoutSessionSchema = v.object({ checkout_url: v.string(), session_id: v.string() });

export const portalSessionSchema = v.object({ portal_url: v.string() });

export const checkoutSuccessSchema = v.object({
  success: v.boolean(),
  activated: v.boolean(),
  plan: v.picklist(PLAN_IDS),
  subscription: subscriptionSchema,
});

export const stripeWebhookAnswerSchema = v.object({ received: v.boolean(), duplicate: v.boolean() });

agree<Same<v.InferOutput<typeof webhookSchema>, WebhookView>>(true);
agree<Same<v.InferOutput<typeof webhookAttemptSchema>, WebhookAttemptView>>(true);
agree<Same<v.InferOutput<typeof webhookDeliverySchema>, WebhookDeliveryView>>(true);
agree<Same<v.InferOutput<typeof apiKeySchema>, ApiKeyView>>(true);
agree<Same<v.InferOutput<typeof apiKeyCreatedSchema>, ApiKeyCreated>>(true);
agree<Same<v.InferOutput<typeof partnerStatsSchema>, PartnerStats>>(true);
agree<Same<v.InferOutput<typeof partnerAuditEntrySchema>, PartnerAuditEntry>>(true);
agree<Same<v.InferOutput<typeof integrationTestResultSchema>, IntegrationTestResult>>(true);
agree<Same<v.InferOutput<typeof planSchema>, PlanOffer>>(true);
agree<Same<v.InferOutput<typeof subscriptionSchema>, SubscriptionView>>(true);
