import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What `attestly setup` asks for; empty strings mean "not used" (embedded SQLite, mail outbox, no billing). */
export interface SetupAnswers {
  dataDir: string;
  databaseUrl: string;
  publicUrl: string;
  smtpUrl: string;
  stripeSecretKey: string;
  stripeWebhookSecret: string;
}

/** Checks of single answers: null when fine, else the problem in one line (the wizard asks again). */
export async function checkDatabase(url: string): Promise<string | null> {
  if (!url || url === 'sqlite') return null;
  if (!/^postgres(ql)?:\/\//.test(url)) return 'Use a postgres:// URL, or leave it empty for embedded SQLite';
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return `Cannot connect: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function checkPublicUrl(url: string): string | null {
  if (!URL.canParse(url)) return 'Enter a URL such as https://verify.example.com';
  const parsed = new URL(url);
  if (!['http:', 'https:'].includes(parsed.protocol)) return 'The public URL must use http or https';
  if (parsed.search || parsed.hash) return 'The public URL must not have a query or fragment';
  return null;
}

/** Connects to the SMTP server and says hello (nodemailer's verify); empty → mail goes to the outbox folder. */
export async function checkSmtp(url: string): Promise<string | null> {
  if (!url) return null;
  if (!/^smtps?:\/\//.test(url))
    return 'Use an smtp:// or smtps:// URL, or leave it empty for the outbox folder';
  const nodemailer = (await import('nodemailer')).default;
  const transport = nodemailer.createTransport(url, {
    connectionTimeout: 5000,
    greetingTimeout: 5000,
  } as object);
  try {
    await transport.verify();
    return null;
  } catch (error) {
    return `The SMTP server refused: ${(error as Error).message}`;
  } finally {
    transport.close();
  }
}

export function checkStripeKey(key: string): string | null {
  if (!key) return null;
  return /^(sk|rk)_/.test(key) ? null : 'A Stripe secret key starts with sk_ or rk_';
}

export function checkStripeWebhookSecret(secret: string): string | null {
  if (!secret) return null;
  return /^whsec_/.test(secret) ? null : 'A Stripe webhook secret starts with whsec_';
}

/** A word for a POSIX shell, quoted only when it needs to be. */
export function shellQuote(value: string): string {
  return /^[\w/.:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `attestly` aimed at one data directory (absolute), or plain `attestly` when none was chosen. */
export function attestlyFor(dataDir: string | undefined): string {
  return dataDir ? `attestly --data-dir ${shellQuote(path.resolve(dataDir))}` : 'attestly';
}

/**
 * The commands to run after setup (issue 25 item 9). Each names the data directory setup chose, as an absolute path:
 * run as printed, from any directory and without ATTESTLY_DATA_DIR, they reach this installation (its config file,
 * database and master key) and never start a second, empty one under ./data.
 */
export function nextSteps(dataDir: string, adminEmail: string | null): string[] {
  const attestly = attestlyFor(dataDir);
  return [
    adminEmail
      ? `${attestly} admin 2fa bootstrap --email ${shellQuote(adminEmail)}`
      : `${attestly} admin create --email you@example.com`,
    `${attestly} doctor`,
    `${attestly} serve`,
  ];
}

export interface SetupResult {
  configFile: string;
  masterKeyFile: string;
  masterKeyCreated: boolean;
  migrations: string[];
  database: 'sqlite' | 'postgres';
}

/**
 * Writes the config file and the master key (both 0600) into the data directory and migrates the database.
 * An existing master key is kept: replacing it would make every sealed secret unreadable.
 */
export async function applySetup(answers: SetupAnswers): Promise<SetupResult> {
  const dataDir = path.resolve(answers.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const masterKeyFile = path.join(dataDir, 'master.key');
  let masterKeyCreated = false;
  if (!existsSync(masterKeyFile)) {
    writeFileSync(masterKeyFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    masterKeyCreated = true;
  }
  chmodSync(masterKeyFile, 0o600);
  const { writeConfigFile, CONFIG_FILE_NAME } = await import('../../../../apps/api/src/config-file');
  const values: Record<string, string> = {
    ATTESTLY_DATA_DIR: dataDir,
    ATTESTLY_PUBLIC_URL: answers.publicUrl.replace(/\/+$/, ''),
  };
  if (answers.databaseUrl && answers.databaseUrl !== 'sqlite') values.DATABASE_URL = answers.databaseUrl;
  if (answers.smtpUrl) values.ATTESTLY_SMTP_URL = answers.smtpUrl;
  if (answers.stripeSecretKey) values.STRIPE_SECRET_KEY = answers.stripeSecretKey;
  if (answers.stripeWebhookSecret) values.STRIPE_WEBHOOK_SECRET = answers.stripeWebhookSecret;
  const configFile = path.join(dataDir, CONFIG_FILE_NAME);
  writeConfigFile(
    configFile,
    values,
    `Written by \`attestly setup\` on ${new Date().toISOString()}. Environment variables of the same names win.\nEvery setting: docs/configuration.md. The master key is ${masterKeyFile} (back it up with your backups).`,
  );
  // The rest of this process reads the new configuration.
  process.env.ATTESTLY_DATA_DIR = dataDir;
  const { openCommandContext, runMigrations } = await import('../../lib/api');
  const context = await openCommandContext({ migrate: 'skip' });
  try {
    const result = await runMigrations(context.deps.db, 'up');
    return {
      configFile,
      masterKeyFile,
      masterKeyCreated,
      migrations: result.migrations,
      database: context.deps.db.dialect,
    };
  } finally {
    await context.close();
  }
}
