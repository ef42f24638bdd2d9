import type { AgeModel } from '@attestly/models';
import * as v from 'valibot';
import { commaList } from './lib/comma-list';
import { allowlistEntryProblem } from './modules/partners/webhooks/outbound-guard';
import { walletEnvEntries } from './modules/users/wallet/config';

/**
 * The environment variables the server reads (DESIGN.md §2; docs/configuration.md is generated from this schema),
 * each checked and given its default here. config.ts reads them and builds the `Config` the services receive.
 */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

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

export function decodeKey(value: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return Buffer.from(value, 'base64');
  return null;
}

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
    commaList(),
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
  ATTESTLY_AGE_MODEL: v.optional(
    // The committed heads of models/src/vision-engine.ts (ageHeads); the type check keeps the two lists together.
    v.picklist(
      ['faceres', 'networks', 'combined'] satisfies AgeModel[],
      'ATTESTLY_AGE_MODEL must be faceres, networks or combined',
    ),
    // models' defaultAgeModel; a literal here keeps this module free of the engine's weights.
    'combined' satisfies AgeModel,
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
    commaList(),
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
    commaList(),
    v.transform((entries) => entries.map((entry) => entry.toUpperCase())),
    v.check(
      (entries) => entries.every((entry) => /^[A-Z]{2}$/.test(entry)),
      'ATTESTLY_CARD_COUNTRIES must be comma-separated two-letter country codes such as GB,IE',
    ),
  ),
  // Wallet credentials (issue 24).
  ...walletEnvEntries,
});
