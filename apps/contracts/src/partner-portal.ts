import * as v from 'valibot';
import { paging } from './fields';

/** Partner API keys (DESIGN.md §3): `atk_test_…` keys call the sandbox, `atk_live_…` keys production. */
export const API_KEY_ENVIRONMENTS = ['sandbox', 'live'] as const;
export type ApiKeyEnvironment = (typeof API_KEY_ENVIRONMENTS)[number];
export const API_KEY_PREFIX: Record<ApiKeyEnvironment, string> = { sandbox: 'atk_test_', live: 'atk_live_' };
/** The header partner servers send their key in. */
export const API_KEY_HEADER = 'X-API-Key';
/** Active (unrevoked) keys a partner may hold at once. */
export const MAX_API_KEYS = 10;

export const createApiKeyBody = v.object({
  environment: v.picklist(API_KEY_ENVIRONMENTS, 'environment must be sandbox or live'),
});
export type CreateApiKeyBody = v.InferInput<typeof createApiKeyBody>;

export const apiKeyIdParams = v.object({ id: v.pipe(v.string(), v.uuid('API key not found')) });

export interface ApiKeyView {
  id: string;
  environment: ApiKeyEnvironment;
  /** The first characters of the key, enough to tell keys apart; never the key. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

/** The answer that creates or regenerates a key: the only time `api_key` is ever shown. */
export interface ApiKeyCreated extends ApiKeyView {
  api_key: string;
}

/** Recent-verification item (spec 01 §3), from this partner's own verifications and token revocations. */
export interface PartnerRecentVerification {
  id: string;
  type: 'verification' | 'token_revocation';
  /** The pairwise subject the partner knows the user by, never the user's internal id or e-mail. */
  user: string;
  location: string | null;
  status: 'success' | 'failed' | 'pending';
  verification_type: string | null;
  site_id: string | null;
  sandbox: boolean;
  timestamp: string;
}

export interface PartnerTopCountry {
  country: string;
  verifications: number;
  percentage: number;
}

/** GET /partners/stats (spec 01 §3 "Partner stats" plus the real figures that replace the reference's placeholders). */
export interface PartnerStats {
  total_sites: number;
  /** Verifications through the partner's own flows plus `verified_at_consent`. */
  total_verifications: number;
  /** Approved verifications through the partner's own flows plus `verified_at_consent`. */
  successful_verifications: number;
  failed_verifications: number;
  /**
   * Users who shared a proven fact (an age, location or identity scope) with one of the partner's live sites
   * having been verified before they consented, outside the partner's flows. Counted once per user, in the month
   * of their first such consent.
   */
  verified_at_consent: number;
  /** Share of finished verifications that succeeded, 0..100 with one decimal; null before the first one. */
  success_rate: number | null;
  monthly_usage: { current_month: number; previous_month: number };
  /** Verifications in the last 30 days against the 30 before, in percent (one decimal); null without a base. */
  trend: { current_period: number; previous_period: number; change_percent: number | null };
  plan: string;
  active_tokens: number;
  revoked_tokens: number;
  /** Mean server time of this partner's OIDC token and verification requests, measured; null before any. */
  avg_response_time_ms: number | null;
  top_countries: PartnerTopCountry[];
  recent_verifications: PartnerRecentVerification[];
  /** Sandbox verifications (made with a sandbox key or a loopback sandbox site); never in the figures above. */
  sandbox_verifications: number;
}

const dateParam = (name: string) =>
  v.pipe(
    v.string(),
    v.maxLength(40, `${name} must be a date`),
    v.check((value) => !Number.isNaN(Date.parse(value)), `${name} must be a date`),
  );

export const partnerAuditQuery = v.object({
  ...paging.entries,
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'search is too long'))),
  event: v.optional(v.pipe(v.string(), v.maxLength(80, 'event is too long'))),
  severity: v.optional(v.picklist(['info', 'warning', 'error'], 'severity must be info, warning or error')),
  start: v.optional(dateParam('start')),
  end: v.optional(dateParam('end')),
});

/** Partner audit entry (spec 01 §3 "Audit log entry (partner view)"). */
export interface PartnerAuditEntry {
  id: string;
  event: string;
  event_type: string;
  severity: string;
  timestamp: string;
  user_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
}

/** One check of POST /partners/sites/{id}/integration-test, timed. */
export interface IntegrationCheck {
  name: string;
  ok: boolean;
  detail: string;
  duration_ms: number;
}

/** spec 01 §3 "Integration test … Result": success, message, details (domain, redirectUri, scopes, responseTime). */
export interface IntegrationTestResult {
  success: boolean;
  message: string;
  checks: IntegrationCheck[];
  details: { domain: string; redirectUri: string; scopes: string[]; responseTime: number };
  error?: string;
}

export const integrationTestBody = v.object({
  redirect_uri: v.optional(v.pipe(v.string(), v.maxLength(2000, 'Redirect URI is too long'))),
});
