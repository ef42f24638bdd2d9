/**
 * The servers the OIDC bench (oidc-bench.ts) measures, each started as its own process: ours on a fresh database
 * with a partner, a site and a signed-in user, and the bare oidc-provider (bare-provider.ts). Also the CPU clocks
 * (ours, and PostgreSQL's processes) the bench reads around each slice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type CookieJar as Jar, freePort } from '../test/http';
import { stopProcess } from '../test/server-process';
import { BARE_CLIENT } from './bare-provider-client';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
// OIDC_BENCH_SERVER=/path/to/dist/server.js measures another build of ours (e.g. one kept aside for an A/B run).
const builtServer = process.env.OIDC_BENCH_SERVER ?? path.join(root, 'apps/api/dist/server.js');
const builtBare = path.join(root, 'apps/api/dist/bench/bare-provider.mjs');
const builtBareKoa = path.join(root, 'apps/api/dist/bench/bare-koa.mjs');

/**
 * Both sides run as plain JavaScript, as in production: our server from the build (`npm run build`), the bare
 * provider compiled here next to it. (Under tsx every Error captures a source-mapped stack, which would tax
 * whichever side throws or logs more.) Without a build ours falls back to tsx, and says so.
 */
export async function commands(
  profileDir?: string,
): Promise<{ ours: string[]; bare: string[]; bareKoa: string[] }> {
  for (const [entry, outfile] of [
    ['bare-provider.ts', builtBare],
    ['bare-koa.ts', builtBareKoa],
  ] as const) {
    await build({
      entryPoints: [path.join(root, 'apps/api/bench', entry)],
      outfile,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
  }
  // With a profile directory each side writes a V8 CPU profile there (--cpu-prof is refused in NODE_OPTIONS).
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const node = profileDir
    ? [process.execPath, '--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=250']
    : [process.execPath];
  if (!existsSync(builtServer)) {
    console.warn('oidc-bench: no apps/api/dist/server.js (npm run build); running our server under tsx');
    return {
      ours: [tsx, path.join(root, 'apps/api/src/server.ts')],
      bare: [...node, builtBare],
      bareKoa: [...node, builtBareKoa],
    };
  }
  return {
    ours: [...node, builtServer],
    bare: [...node, builtBare],
    bareKoa: [...node, builtBareKoa],
  };
}

export interface Endpoints {
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  introspection_endpoint: string;
}

export interface Target {
  name: string;
  issuer: string;
  client: { client_id: string; client_secret: string; redirect_uri: string };
  /** Answers one interaction (sign-in or consent) at `location`; returns where the browser goes next. */
  interact(jar: Jar, location: string): Promise<string>;
  stop(): Promise<void>;
  /** The server's process id, to read its CPU time (a fairer comparison than rates on a loaded machine). */
  pid?: number;
  /** Ours: the base URL and a signed-in user's bearer token, for the plain API's GET /users/profile. */
  api?: { base: string; token: string };
  /** Ours: round trips to the database so far (`attestly_db_round_trips_total` from /metrics). */
  roundTrips?: () => Promise<number>;
  /** Ours on PostgreSQL: analyses the tables autovacuum would have by now, where the server runs without it. */
  analyze?: () => Promise<void>;
}

/** The bearer token our servers take for /metrics in the bench (round trips per operation). */
const METRICS_TOKEN = 'oidc-bench-metrics-token';

/** Reads `attestly_db_round_trips_total` from a server of ours. */
async function readRoundTrips(base: string): Promise<number> {
  const answer = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await answer.text();
  const line = /^attestly_db_round_trips_total (\d+)/m.exec(text);
  if (answer.status !== 200 || !line)
    throw new Error(`no round-trip count at ${base}/metrics (${answer.status})`);
  return Number(line[1]);
}

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU milliseconds used so far by every PostgreSQL process on this machine (from /proc): the database server shares
 * the cores with ours, so on PostgreSQL part of what a request costs is spent there, outside our process.
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += cpuMs(Number(entry));
    } catch {
      // the process ended between listing and reading
    }
  }
  return total;
}

/** Starts a child process and resolves with its port once its log line says it listens. */
export function startProcess(
  command: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ child: ChildProcess; port: number }> {
  const [executable = process.execPath, ...args] = command;
  const child = spawn(executable, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Keep draining both streams for the whole run: a full pipe would block the server's logger.
  child.stdout?.on('data', (chunk: Buffer) => {
    if (output.length < 100_000) output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (output.length < 100_000) output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start:\n${output}`)), 120_000);
    const poll = setInterval(() => {
      const match = ready.exec(output);
      if (match) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${output}`));
    });
  });
}

async function postJson(url: string, body: unknown, jar?: Jar, bearer?: string) {
  const init: RequestInit = {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
  };
  const response = jar ? await jar.fetch(url, init) : await fetch(url, init);
  const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.status >= 300) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return json ?? {};
}

/**
 * What PostgreSQL's autovacuum does for statistics, on a server that runs without it (this project's machine does):
 * ANALYZE each table once more than 50 rows + 10 % of it changed since its last analysis (autovacuum's defaults).
 * Plans follow statistics: a prepared statement's generic plan is made when the statement is first used and kept
 * until its table is analysed, so without this every plan of the run is one made on empty tables (auto_explain,
 * 2026-11-29: the authorization code's consume and read scanned every code issued so far through the (model,
 * expires_at) index, 1,865 rows and 1.3 ms each after two thousand flows). Run between slices, never inside one.
 */
async function analyzeLikeAutovacuum(url: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: setting } = await client.query<{ on: boolean }>(
      "SELECT current_setting('autovacuum') = 'on' AS on",
    );
    if (setting[0]?.on) return;
    const { rows } = await client.query<{ table: string }>(
      `SELECT quote_ident(schemaname) || '.' || quote_ident(relname) AS table FROM pg_stat_user_tables
        WHERE n_mod_since_analyze > 50 + 0.1 * GREATEST(n_live_tup, 0)`,
    );
    for (const { table } of rows) await client.query(`ANALYZE ${table}`);
  } finally {
    await client.end();
  }
}

/** A throwaway PostgreSQL database on `server`; null for SQLite. */
export async function benchDatabase(
  server: string | null,
): Promise<{ url: string; analyze(): Promise<void>; drop(): Promise<void> } | null> {
  if (!server) return null;
  const { default: pg } = await import('pg');
  const name = `attestly_oidc_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    analyze: () => analyzeLikeAutovacuum(url.toString()),
    async drop() {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Our server on a fresh database (SQLite, or a throwaway one on the PostgreSQL `server`), with a partner, a site and a user. */
export async function startOurs(command: string[], server: string | null, name = 'ours'): Promise<Target> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-oidc-bench-'));
  const database = await benchDatabase(server);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { child } = await startProcess(
    command,
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      ATTESTLY_DATA_DIR: dataDir,
      ATTESTLY_PUBLIC_URL: base,
      ATTESTLY_VISION: 'false',
      ATTESTLY_PASSWORD_COST: '12',
      ATTESTLY_PARTNER_INITIAL_STATUS: 'active', // no mailbox to open the partner's e-mail link from
      DATABASE_URL: database?.url ?? '',
      NODE_ENV: 'production',
      ATTESTLY_METRICS_TOKEN: METRICS_TOKEN,
    },
    /"port":(\d+)[^\n]*Attestly listening/,
  );
  const partner = { email: 'bench-partner@example.com', password: 'bench partner password' };
  await postJson(`${base}/api/v1/partners/register`, {
    ...partner,
    company_name: 'Bench Co',
    business_type: 'Gaming',
  });
  const login = await postJson(`${base}/api/v1/partners/login`, partner);
  const redirectUri = 'https://rp.bench.example/callback';
  const site = await postJson(
    `${base}/api/v1/partners/sites`,
    {
      site_name: 'Bench Site',
      domain: 'rp.bench.example',
      redirect_uris: [redirectUri],
      allowed_scopes: ['basic_info', 'AGE_18'],
    },
    undefined,
    String(login.access_token),
  );
  const user = { full_name: 'Bench User', email: 'bench-user@example.com', password: 'bench user password' };
  await postJson(`${base}/api/v1/users/register`, user);
  const signedIn = await postJson(`${base}/api/v1/users/login`, {
    email: user.email,
    password: user.password,
  });
  return {
    api: { base, token: String(signedIn.access_token) },
    // A build from before the counter (OIDC_BENCH_BASELINE_SERVER) has none: its figures leave the count out.
    roundTrips: () => readRoundTrips(base),
    ...(database ? { analyze: () => database.analyze() } : {}),
    name,
    issuer: `${base}/oauth2`,
    client: {
      client_id: String(site.client_id),
      client_secret: String(site.client_secret),
      redirect_uri: redirectUri,
    },
    async interact(jar, location) {
      const url = new URL(location);
      const uid = url.searchParams.get('uid') as string;
      const api = `${base}/api/v1/oauth/interactions/${uid}`;
      const answer =
        url.pathname === '/oauth/login'
          ? await postJson(`${api}/login`, { email: user.email, password: user.password }, jar)
          : await postJson(`${api}/consent`, { scopes: ['basic_info', 'AGE_18'] }, jar);
      return String(answer.redirect_to);
    },
    async stop() {
      await stopProcess(child);
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    pid: child.pid,
  };
}

/**
 * The bare provider: dev interactions, answered with their own form posts. With a PostgreSQL `server` it keeps its
 * state in a throwaway database there (bare-provider-pg.ts), as the side named `floor`.
 */
export async function startBare(command: string[], server: string | null = null): Promise<Target> {
  const database = await benchDatabase(server);
  const { child, port } = await startProcess(
    command,
    { NODE_ENV: 'production', BARE_DATABASE_URL: database?.url ?? '' },
    /"port":(\d+)[^\n]*bare oidc-provider listening/,
  );
  const base = `http://127.0.0.1:${port}`;
  return {
    name: database ? 'floor' : 'bare',
    ...(database ? { roundTrips: () => readRoundTrips(base), analyze: () => database.analyze() } : {}),
    issuer: base,
    client: BARE_CLIENT,
    async interact(jar, location) {
      const page = await jar.fetch(location);
      const html = await page.text();
      const prompt =
        /name="prompt" value="(\w+)"/.exec(html)?.[1] ??
        (html.includes('name="login"') ? 'login' : 'consent');
      const form = new URLSearchParams(
        prompt === 'login' ? { prompt, login: 'bench-user', password: 'x' } : { prompt },
      );
      const response = await jar.fetch(location, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      const next = response.headers.get('location');
      if (!next) throw new Error(`bare ${prompt}: ${response.status} ${await response.text()}`);
      return new URL(next, location).href;
    },
    stop: async () => {
      await stopProcess(child);
      await database?.drop();
    },
    pid: child.pid,
  };
}

export async function discover(target: Target): Promise<Endpoints> {
  const response = await fetch(`${target.issuer}/.well-known/openid-configuration`);
  return (await response.json()) as Endpoints;
}
