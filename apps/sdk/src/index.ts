/**
 * @attestly/sdk — the server client for partner back ends. It authenticates with an API key (`X-API-Key`):
 * sandbox keys (`atk_test_…`) with `environment: 'sandbox'`, live keys (`atk_live_…`) with `'production'`.
 *
 *   const attestly = new Attestly({ apiKey: process.env.ATTESTLY_API_KEY, environment: 'production',
 *     baseUrl: 'https://verify.example.com' });
 *   const result = await attestly.verifyAge({ userId: sub, method: 'credit_card' });
 *   if (result.verified) …
 */

export type Environment = 'sandbox' | 'production';

export interface AttestlyOptions {
  apiKey: string;
  environment?: Environment;
  /** Where your Attestly appliance is, e.g. https://verify.example.com (no trailing /api/v1). */
  baseUrl: string;
  /** Per-request timeout; 10 s by default. */
  timeoutMs?: number;
  /** A fetch implementation (tests, proxies); the global fetch by default. */
  fetch?: typeof fetch;
}

/** RFC 7662-style answer of POST /partners/validate-token. */
export interface TokenValidation {
  active: boolean;
  scope?: string;
  client_id?: string;
  site_id?: string;
  /** The pairwise subject your sites know this user by. */
  sub?: string;
  token_type?: string;
  exp?: number;
  iat?: number;
}

export interface PartnerStats {
  total_sites: number;
  total_verifications: number;
  successful_verifications: number;
  failed_verifications: number;
  success_rate: number | null;
  monthly_usage: { current_month: number; previous_month: number };
  trend: { current_period: number; previous_period: number; change_percent: number | null };
  plan: string;
  active_tokens: number;
  revoked_tokens: number;
  avg_response_time_ms: number | null;
  top_countries: Array<{ country: string; verifications: number; percentage: number }>;
  recent_verifications: Array<{
    id: string;
    type: 'verification' | 'token_revocation';
    user: string;
    location: string | null;
    status: 'success' | 'failed' | 'pending';
    verification_type: string | null;
    site_id: string | null;
    sandbox: boolean;
    timestamp: string;
  }>;
  sandbox_verifications: number;
  /** Users already verified when they consented to one of your sites (included in the totals). */
  verified_at_consent: number;
}

export interface AuditLogEntry {
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

export interface AuditLogQuery {
  skip?: number;
  limit?: number;
  search?: string;
  event?: string;
  severity?: 'info' | 'warning' | 'error';
  start?: string | Date;
  end?: string | Date;
}

export type AgeThreshold = 12 | 16 | 18 | 21;
export type AgeMethod = 'credit_card' | 'facial_recognition' | 'document';

export interface VerifyAgeParams {
  /** The user's id at your sites: the `sub` your sites received from Attestly's sign-in. */
  userId: string;
  /** 18 by default. The user must have granted your site the AGE_NN scope for it (or a higher one). */
  ageThreshold?: AgeThreshold;
  /** Ask whether this method proved it; any method by default. */
  method?: AgeMethod;
}

/** Answer of POST /partners/verify-age. */
export interface AgeVerification {
  verified: boolean;
  user_id: string;
  age_threshold: AgeThreshold;
  method: AgeMethod | null;
  /** The day the age was proven (midnight UTC), when verified. */
  verification_timestamp: string | null;
  /** Where to send the user to prove it, when not verified. */
  verify_url: string | null;
}

/** An error answer from Attestly: `detail` is the human message, `code` the stable reason. */
export class AttestlyError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly requestId: string | null;
  readonly errors: Array<{ path: string; message: string }>;

  constructor(
    status: number,
    code: string,
    detail: string,
    requestId: string | null = null,
    errors: Array<{ path: string; message: string }> = [],
  ) {
    super(detail);
    this.name = 'AttestlyError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.requestId = requestId;
    this.errors = errors;
  }
}

const KEY_PREFIX: Record<Environment, string> = { sandbox: 'atk_test_', production: 'atk_live_' };

export class Attestly {
  readonly environment: Environment;
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: AttestlyOptions) {
    if (!options || typeof options.apiKey !== 'string' || !options.apiKey) {
      throw new TypeError('Attestly: apiKey is required');
    }
    if (typeof options.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl)) {
      throw new TypeError('Attestly: baseUrl must be the http(s) address of your Attestly appliance');
    }
    this.environment = options.environment ?? 'production';
    if (!(this.environment in KEY_PREFIX)) {
      throw new TypeError("Attestly: environment must be 'sandbox' or 'production'");
    }
    // A live key in a sandbox client (or the reverse) is a configuration mistake worth failing on at start-up.
    if (!options.apiKey.startsWith(KEY_PREFIX[this.environment])) {
      throw new TypeError(
        `Attestly: a ${this.environment} client needs a key starting with ${KEY_PREFIX[this.environment]}`,
      );
    }
    this.#apiKey = options.apiKey;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  async #call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await this.#fetch(`${this.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        'X-API-Key': this.#apiKey,
        Accept: 'application/json',
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(this.#timeoutMs),
    });
    const text = await response.text();
    let payload: unknown = undefined;
    try {
      payload = text ? JSON.parse(text) : undefined;
    } catch {
      payload = undefined;
    }
    if (!response.ok) {
      const envelope = (payload ?? {}) as {
        detail?: string;
        code?: string;
        request_id?: string;
        errors?: Array<{ path: string; message: string }>;
      };
      throw new AttestlyError(
        response.status,
        envelope.code ?? 'http_error',
        envelope.detail ?? `HTTP error! status: ${response.status}`,
        envelope.request_id ?? null,
        envelope.errors ?? [],
      );
    }
    return payload as T;
  }

  /** Whether an access token your site received is active, and for whom (POST /partners/validate-token). */
  validateToken(token: string): Promise<TokenValidation> {
    return this.#call('POST', '/partners/validate-token', { token });
  }

  /**
   * Whether one of your users has proven an age (POST /partners/verify-age): a yes or no, for a user who granted your
   * site an age scope. With `method: 'credit_card'`, whether an issuer-confirmed credit card proved it. Card data
   * never passes through your server: the user enters the card on Attestly's verification page (`verify_url`),
   * which sends it straight to the card processor.
   */
  verifyAge(params: VerifyAgeParams): Promise<AgeVerification> {
    if (!params || typeof params.userId !== 'string' || !params.userId) {
      throw new TypeError('Attestly: verifyAge needs the userId (the sub your site received)');
    }
    const extra = params as unknown as Record<string, unknown>;
    if (['cardData', 'card', 'card_number', 'cardNumber'].some((field) => field in extra)) {
      throw new TypeError(
        "Attestly: card numbers must not pass through your server; send the user to the result's verify_url, where the card goes straight to the card processor",
      );
    }
    return this.#call('POST', '/partners/verify-age', {
      user_id: params.userId,
      ...(params.ageThreshold !== undefined ? { age_threshold: params.ageThreshold } : {}),
      ...(params.method !== undefined ? { method: params.method } : {}),
    });
  }

  /** Your statistics (GET /partners/stats). */
  getStats(): Promise<PartnerStats> {
    return this.#call('GET', '/partners/stats');
  }

  /** Your audit log, newest first (GET /partners/audit-logs). */
  getAuditLogs(query: AuditLogQuery = {}): Promise<{ audit_logs: AuditLogEntry[]; total_count: number }> {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === null || value === '') continue;
      params.set(key, value instanceof Date ? value.toISOString() : String(value));
    }
    const suffix = params.size ? `?${params.toString()}` : '';
    return this.#call('GET', `/partners/audit-logs${suffix}`);
  }
}

export default Attestly;

export {
  verifyWebhook,
  WebhookVerificationError,
  WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
} from './webhooks';
