import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import supertest from 'supertest';
import { loadConfig, type Config } from '../src/config';
import { createLogger } from '../src/logger';
import { bootstrap } from '../src/bootstrap';
import { createApp, type AppOptions } from '../src/app';
import { ManualClock } from '../src/lib/clock';
import type { RandomSource } from '../src/lib/random';
import { createServer, type Server } from 'node:http';
import { createOidc, type OidcOptions } from '../src/oidc';
import { describeMismatches, responseConformance } from '../src/modules/public/docs/conformance';

/** The database under test: SQLite by default, PostgreSQL when TEST_DATABASE_URL says so. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? null;
export const onPostgres = !!testDatabaseUrl && /^postgres(ql)?:/.test(testDatabaseUrl);

/** Creates an empty database for one test file: a throwaway PostgreSQL database, or a SQLite file in a temp dir. */
export async function createTestDatabase(): Promise<{
  url: string | null;
  dataDir: string;
  drop(): Promise<void>;
}> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-test-'));
  if (!onPostgres) {
    return { url: null, dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `attestly_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl as string });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(testDatabaseUrl as string);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir,
    async drop() {
      const client = new pg.Client({ connectionString: testDatabaseUrl as string });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CapturedMail {
  to: string[];
  raw: string;
  subject: string;
  /** The decoded text body (quoted-printable soft breaks undone). */
  text: string;
}

/** A real SMTP server in-process (the `smtp-server` package): the app talks SMTP to it and tests read the mail. */
export async function startSmtpCapture() {
  const messages: CapturedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const [head = '', ...body] = raw.split(/\r?\n\r?\n/);
        const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(head)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '';
        let text = body.join('\n\n');
        if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
          text = text
            .replace(/=\r?\n/g, '')
            .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        }
        messages.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, subject, text });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Waits for a mail to `to` matching `subject` (mail is sent after the response). */
    async waitFor(to: string, subject: RegExp, timeoutMs = 5000): Promise<CapturedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find((mail) => mail.to.includes(to) && subject.test(mail.subject));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Captures JSON log lines (e.g. phone codes from the log notifier). */
export function logCapture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, stream };
}

export interface TestAppOptions extends AppOptions {
  env?: Record<string, string>;
  /**
   * Mounts the OpenID Connect provider (createOidc). The public URL then is the server's real address, so that
   * relying-party libraries see an issuer that matches the discovery URL.
   */
  withOidc?: boolean | OidcOptions;
  /** The app's clock; by default a manual clock at the real time. */
  clock?: ManualClock;
  /** A seeded random source for liveness challenges (so a recorded clip's motions are the ones asked). */
  random?: RandomSource;
}

/**
 * Boots the real app on a fresh database with a real SMTP server and a manual clock. Password cost 12 keeps the
 * suite fast; the production cost is measured by `npm run bench`.
 */
export async function createTestApp(options: TestAppOptions = {}) {
  const database = await createTestDatabase();
  const smtp = await startSmtpCapture();
  const logs = logCapture();
  let early: { server: Server; url: string } | null = null;
  if (options.withOidc) {
    const listening = createServer();
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    early = { server: listening, url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}` };
  }
  const config: Config = loadConfig({
    ATTESTLY_DATA_DIR: database.dataDir,
    DATABASE_URL: database.url ?? undefined,
    ATTESTLY_PUBLIC_URL: early?.url ?? 'http://attestly.test',
    ATTESTLY_SMTP_URL: smtp.url,
    ATTESTLY_PASSWORD_COST: '12',
    LOG_LEVEL: 'info',
    ATTESTLY_WEB_DIR: path.join(database.dataDir, 'no-web'),
    // Lets a test speak as a distinct client with X-Forwarded-For (see signUp): per-IP rate limits would
    // otherwise count every request of a file, which all come from 127.0.0.1 under a frozen clock.
    ATTESTLY_TRUST_PROXY: 'true',
    ...options.env,
  });
  const clock = options.clock ?? new ManualClock(new Date());
  const logger = createLogger(config, logs.stream);
  const booted = await bootstrap(config, logger, { clock });
  const deps = options.random ? { ...booted, random: options.random } : booted;
  const oidc = options.withOidc
    ? await createOidc(deps, {
        keyCheckIntervalMs: 0,
        ...(options.withOidc === true ? {} : options.withOidc),
      })
    : options.oidc;
  const { app, services } = createApp(deps, { ...options, oidc });
  // Every answer of a described route is checked against the schema it declares for that status (describeRoute);
  // close() fails the test file when one did not match. In front of everything, so it sees the final answer.
  const conformance = responseConformance(app);
  app.middleware.unshift(conformance.middleware);
  let server: Server;
  if (early) {
    server = early.server;
    server.on('request', app.callback());
  } else {
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  }
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    app,
    server,
    baseUrl,
    request: supertest(server),
    services,
    deps,
    db: deps.db,
    config,
    clock,
    smtp,
    logs,
    oidc,
    /** Answers that did not match their route's declared schema so far. */
    responseMismatches: conformance.mismatches,
    responsesChecked: conformance.checked,
    async close() {
      oidc?.close();
      // Relying-party libraries keep connections alive; close() would otherwise wait for them to time out.
      if (oidc) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Mail and other work the last responses left running must finish before the database goes away.
      await services.users.whenIdle();
      await deps.db.close();
      await smtp.close();
      await database.drop();
      if (conformance.mismatches.length > 0) {
        throw new Error(
          `Answers that do not match the schema their route declares (describeRoute):\n${describeMismatches(conformance.mismatches)}`,
        );
      }
    },
  };
}
export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** A fresh client address for X-Forwarded-For, so that per-IP limits do not carry over between tests. */
export function randomClientIp(): string {
  const [a = 0, b = 0, c = 0] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

/** Registers and signs in a user (from a fresh client address); returns the bearer token and profile. */
export async function signUp(
  t: TestApp,
  overrides: { email?: string; password?: string; full_name?: string; rememberMe?: boolean } = {},
) {
  const email = overrides.email ?? `user-${randomBytes(4).toString('hex')}@example.com`;
  const password = overrides.password ?? 'correct horse battery';
  const ip = randomClientIp();
  await t.request
    .post('/api/v1/users/register')
    .set('X-Forwarded-For', ip)
    .send({ full_name: overrides.full_name ?? 'Test User', email, password })
    .expect(201);
  const login = await t.request
    .post('/api/v1/users/login')
    .set('X-Forwarded-For', ip)
    .send({ email, password, rememberMe: overrides.rememberMe ?? false })
    .expect(200);
  return {
    email,
    password,
    token: login.body.access_token as string,
    user: login.body.user as { id: string },
  };
}

/** Tables whose row counts `rowCounts` reports by default: what a rejected request must leave alone. */
export const ACCOUNT_TABLES = [
  'users',
  'sessions',
  'one_time_tokens',
  'user_photos',
  'audit_logs',
  'newsletter_subscribers',
];

/**
 * Row counts per table, to assert that a rejected request changed nothing in the database. Waits first for the work
 * earlier requests left running (mail, post-registration steps), so that it does not land between two counts.
 */
export async function rowCounts(
  t: TestApp,
  tables: string[] = ACCOUNT_TABLES,
): Promise<Record<string, number>> {
  await t.services.users.whenIdle();
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [rows] = await t.db.sequelize.query(`SELECT COUNT(*) AS n FROM ${table}`);
    counts[table] = Number((rows as Array<{ n: number | string }>)[0]?.n);
  }
  return counts;
}
