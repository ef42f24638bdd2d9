/**
 * OpenID Connect benchmark (issue 4 "Performance"): complete authorization-code + PKCE flows per second with 16
 * concurrent clients (each keeps its provider session, and consent is remembered, so a flow is authorize →
 * redirect with a code → token exchange with the verifier), then userinfo and introspection requests per second.
 * The same harness runs against our server (its own process, fresh SQLite database) and against a bare
 * oidc-provider with its in-memory adapter and development interactions (bare-provider.ts), and prints the
 * ratios. Targets (issue 15): full flows ≥ 0.9× bare, userinfo and introspection ≥ 0.6× bare, p99 < 20 ms. It also
 * loads our `GET /api/v1/users/profile` and a bare Koa JSON route (bare-koa.ts) the same way: target ≥ 0.3×.
 * OIDC_BENCH_DATABASE_URL=postgres://… runs our server on PostgreSQL (a throwaway database is created and dropped);
 * `npm run bench` runs SQLite and then PostgreSQL (runOidcBench). OIDC_BENCH_PROFILE_DIR=<dir> writes CPU profiles
 * of each server and the phases they served; `npx tsx apps/api/bench/profile-summary.ts <dir>` breaks them down per
 * request, ours against bare.
 *
 * Run alone: `npx tsx apps/api/bench/oidc-bench.ts`; `npm run bench` imports `runOidcBench`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { CookieJar as Jar, freePort } from '../test/http';
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
export async function commands(): Promise<{ ours: string[]; bare: string[]; bareKoa: string[] }> {
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
  // OIDC_BENCH_PROFILE_DIR=/tmp/prof: each side writes a V8 CPU profile there (--cpu-prof is refused in NODE_OPTIONS).
  const profileDir = process.env.OIDC_BENCH_PROFILE_DIR;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const node = profileDir
    ? [process.execPath, '--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=250']
    : [process.execPath];
  if (!existsSync(builtServer)) {
    console.warn('oidc-bench: no apps/api/dist/server.js (npm run build); running our server under tsx');
    return {
      ours: [tsx, path.join(root, 'apps/api/src/server.ts')],
      bare: [...node, builtBare],
      bareKoa: [process.execPath, builtBareKoa],
    };
  }
  return {
    ours: [...node, builtServer],
    bare: [...node, builtBare],
    bareKoa: [process.execPath, builtBareKoa],
  };
}

const CLIENTS = 16;
const FLOW_SECONDS = Number(process.env.OIDC_BENCH_FLOW_SECONDS ?? 8);
const LOAD_SECONDS = Number(process.env.OIDC_BENCH_LOAD_SECONDS ?? 5);
const SCOPE = 'openid basic_info AGE_18';

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

/** Starts a child process and resolves with its port once its log line says it listens. */
function startProcess(
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

/** A throwaway PostgreSQL database on `server`; null for SQLite. */
async function benchDatabase(server: string | null): Promise<{ url: string; drop(): Promise<void> } | null> {
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

/** The bare provider: dev interactions, answered with their own form posts. */
export async function startBare(command: string[]): Promise<Target> {
  const { child, port } = await startProcess(
    command,
    { NODE_ENV: 'production' },
    /"port":(\d+)[^\n]*bare oidc-provider listening/,
  );
  const base = `http://127.0.0.1:${port}`;
  return {
    name: 'bare',
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
    },
    pid: child.pid,
  };
}

export async function discover(target: Target): Promise<Endpoints> {
  const response = await fetch(`${target.issuer}/.well-known/openid-configuration`);
  return (await response.json()) as Endpoints;
}

const basic = (client: Target['client']) =>
  `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;

/**
 * One complete flow for a client whose session and consent exist: authorize (PKCE S256, state) → the provider's
 * redirects → code at the redirect URI → token exchange. Interactions are answered when they come up (first flow).
 */
export async function flow(
  target: Target,
  endpoints: Endpoints,
  jar: Jar,
): Promise<{ access_token: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const params = new URLSearchParams({
    client_id: target.client.client_id,
    response_type: 'code',
    redirect_uri: target.client.redirect_uri,
    scope: SCOPE,
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  let location = `${endpoints.authorization_endpoint}?${params}`;
  for (let hop = 0; !location.startsWith(target.client.redirect_uri); hop += 1) {
    if (hop > 10) throw new Error(`${target.name}: too many redirects`);
    const url = new URL(location);
    if (url.pathname.startsWith('/oauth/') || url.pathname.startsWith('/interaction/')) {
      location = await target.interact(jar, location);
      continue;
    }
    const response = await jar.fetch(location);
    await response.arrayBuffer();
    const next = response.headers.get('location');
    if (!next) throw new Error(`${target.name}: no redirect from ${location} (${response.status})`);
    location = new URL(next, location).href;
  }
  const callback = new URL(location);
  const code = callback.searchParams.get('code');
  if (!code || callback.searchParams.get('state') !== state)
    throw new Error(`${target.name}: bad callback ${location}`);
  const response = await fetch(endpoints.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(target.client) },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: target.client.redirect_uri,
      code_verifier: verifier,
    }).toString(),
  });
  const tokens = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !tokens.access_token)
    throw new Error(`${target.name}: token ${response.status}`);
  return { access_token: tokens.access_token };
}

export function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function measure(target: Target) {
  const endpoints = await discover(target);
  const jars = Array.from({ length: CLIENTS }, () => new Jar());
  // Setup, not measured: each client signs in once and (the first) consents; later flows reuse both.
  let token = '';
  for (const jar of jars) token = (await flow(target, endpoints, jar)).access_token;
  for (const jar of jars) await flow(target, endpoints, jar);

  let flows = 0;
  let errors = 0;
  const phases = new Phases(target);
  const flowCpu = cpuMs(target.pid);
  const deadline = performance.now() + FLOW_SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    jars.map(async (jar) => {
      while (performance.now() < deadline) {
        try {
          await flow(target, endpoints, jar);
          flows += 1;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const flowSeconds = (performance.now() - started) / 1000;
  const flowCpuMs = cpuMs(target.pid) - flowCpu;
  phases.end('flow', flows);

  // A fresh token for the loads: the bare provider's memory adapter is an LRU of 1,000 entries, which the flows
  // above have long cycled through. Each load must measure successful answers: check one first.
  token = (await flow(target, endpoints, jars[0] as Jar)).access_token;
  const probe = await fetch(endpoints.userinfo_endpoint, { headers: { authorization: `Bearer ${token}` } });
  if (probe.status !== 200) throw new Error(`${target.name} userinfo: ${probe.status} ${await probe.text()}`);
  const userinfoCpu = cpuMs(target.pid);
  phases.start();
  const userinfo = await cannon({
    url: endpoints.userinfo_endpoint,
    connections: CLIENTS,
    duration: LOAD_SECONDS,
    headers: { authorization: `Bearer ${token}` },
  });
  const userinfoCpuMs = cpuMs(target.pid) - userinfoCpu;
  phases.end('userinfo', userinfo.requests.total);
  const introspectionCpu = cpuMs(target.pid);
  const introspection = await cannon({
    url: endpoints.introspection_endpoint,
    method: 'POST',
    connections: CLIENTS,
    duration: LOAD_SECONDS,
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(target.client) },
    body: new URLSearchParams({ token }).toString(),
  });
  const introspectionCpuMs = cpuMs(target.pid) - introspectionCpu;
  phases.end('introspection', introspection.requests.total);
  const profile = target.api
    ? await loadRoute(target.api.base, PROFILE_ROUTE, { token: target.api.token, pid: target.pid })
    : null;
  if (profile) phases.end('profile', profile.total);
  // The floor under every route of ours: /healthz does no work, so its cost is the shared middleware stack alone.
  const healthz = target.api ? await loadRoute(target.api.base, '/healthz', { pid: target.pid }) : null;
  if (healthz) phases.end('healthz', healthz.total);
  phases.write();
  const perCall = (ms: number, calls: number, unit: number) =>
    calls > 0 && Number.isFinite(ms) ? Math.round(((ms * unit) / calls) * 10) / 10 : 0;
  return {
    // The server's CPU time per flow (ms) and per request (µs): steadier than rates when the machine is busy.
    flow_cpu_ms: perCall(flowCpuMs, flows, 1),
    userinfo_cpu_us: perCall(userinfoCpuMs, userinfo.requests.total, 1000),
    introspect_cpu_us: perCall(introspectionCpuMs, introspection.requests.total, 1000),
    flows_per_s: Math.round((flows / flowSeconds) * 10) / 10,
    flow_errors: errors,
    userinfo_rps: Math.round(userinfo.requests.average),
    userinfo_p99_ms: userinfo.latency.p99,
    userinfo_non2xx: userinfo.non2xx,
    introspect_rps: Math.round(introspection.requests.average),
    introspect_p99_ms: introspection.latency.p99,
    introspect_non2xx: introspection.non2xx,
    ...(profile
      ? {
          profile_rps: profile.rps,
          profile_p99_ms: profile.p99,
          profile_non2xx: profile.non2xx,
          profile_cpu_us: profile.cpu_us,
        }
      : {}),
    ...(healthz ? { healthz_rps: healthz.rps, healthz_cpu_us: healthz.cpu_us } : {}),
  };
}

const PROFILE_ROUTE = '/api/v1/users/profile';

/**
 * A GET route (ours: `/users/profile` with a bearer token, `/healthz`; bare-koa.ts's profile route) loaded like
 * userinfo, with the server's CPU time per request.
 */
async function loadRoute(base: string, route: string, options: { token?: string; pid?: number }) {
  const cpu = cpuMs(options.pid);
  const result = await cannon({
    url: `${base}${route}`,
    connections: CLIENTS,
    duration: LOAD_SECONDS,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
  });
  const total = result.requests.total;
  const cpuUs = total > 0 ? ((cpuMs(options.pid) - cpu) * 1000) / total : Number.NaN;
  return {
    rps: Math.round(result.requests.average),
    p99: result.latency.p99,
    non2xx: result.non2xx,
    total,
    cpu_us: Number.isFinite(cpuUs) ? Math.round(cpuUs * 10) / 10 : 0,
  };
}

/** The bare Koa JSON route (bare-koa.ts) under the same load. */
async function measureBareKoa(command: string[]) {
  const { child, port } = await startProcess(
    command,
    { NODE_ENV: 'production' },
    /"port":(\d+)[^\n]*bare koa/,
  );
  try {
    return await loadRoute(`http://127.0.0.1:${port}`, PROFILE_ROUTE, { token: 'bench', pid: child.pid });
  } finally {
    await stopProcess(child);
  }
}

/**
 * With OIDC_BENCH_PROFILE_DIR, when each measured phase ran (monotonic clock, the CPU profile's time base on Linux)
 * and how many operations it served, written beside the profiles as `phases-<pid>.json`: profile-summary.ts reads
 * them to give each function's CPU time per operation, ours against bare.
 */
class Phases {
  private readonly list: { name: string; start_us: number; end_us: number; operations: number }[] = [];
  private started = Phases.now();
  constructor(private readonly target: Target) {}
  private static now() {
    return Number(process.hrtime.bigint() / 1000n);
  }
  start() {
    this.started = Phases.now();
  }
  end(name: string, operations: number) {
    const now = Phases.now();
    this.list.push({ name, start_us: this.started, end_us: now, operations });
    this.started = now;
  }
  write() {
    const dir = process.env.OIDC_BENCH_PROFILE_DIR;
    if (!dir || this.target.pid === undefined) return;
    writeFileSync(
      path.join(dir, `phases-${this.target.pid}.json`),
      JSON.stringify({ name: this.target.name, pid: this.target.pid, phases: this.list }),
    );
  }
}

const ratio = (ours: number, bare: number) => (bare > 0 ? Math.round((ours / bare) * 100) / 100 : 0);

/**
 * `npm run bench`: SQLite, then PostgreSQL when a server answers (OIDC_BENCH_DATABASE_URL, else TEST_DATABASE_URL
 * when it is PostgreSQL, else postgres://postgres@127.0.0.1:5432/postgres), its figures prefixed `pg_`.
 */
export async function runOidcBench(): Promise<Record<string, number>> {
  const figures = await runOidcBenchOn(null);
  const server =
    process.env.OIDC_BENCH_DATABASE_URL ??
    (process.env.TEST_DATABASE_URL && /^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL)
      ? process.env.TEST_DATABASE_URL
      : 'postgres://postgres@127.0.0.1:5432/postgres');
  if (!(await postgresAnswers(server))) {
    console.warn(`oidc-bench: no PostgreSQL at ${server}; SQLite only`);
    return figures;
  }
  const postgres = await runOidcBenchOn(server);
  return {
    ...figures,
    ...Object.fromEntries(Object.entries(postgres).map(([key, value]) => [`pg_${key}`, value])),
  };
}

async function postgresAnswers(server: string): Promise<boolean> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** One run, ours on SQLite (`server` null) or on a throwaway PostgreSQL database, against bare in the same run. */
export async function runOidcBenchOn(server: string | null): Promise<Record<string, number>> {
  const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
  // One after the other, so that the two never compete for the two cores.
  const command = await commands();
  // OIDC_BENCH_BASELINE_SERVER=/path/to/an/older/dist/server.js also measures that build in the same run (A/B).
  const baseline = process.env.OIDC_BENCH_BASELINE_SERVER;
  const starts = [
    () => startOurs(command.ours, server),
    ...(baseline
      ? [() => startOurs([command.ours[0] as string, ...command.ours.slice(1, -1), baseline], server, 'base')]
      : []),
    () => startBare(command.bare),
  ];
  for (const start of starts) {
    const target = await start();
    try {
      results[target.name] = await measure(target);
    } finally {
      await target.stop();
    }
  }
  const bareKoa = await measureBareKoa(command.bareKoa);
  const ours = results.ours as Awaited<ReturnType<typeof measure>>;
  const bare = results.bare as Awaited<ReturnType<typeof measure>>;
  const figures: Record<string, number> = {
    ...Object.fromEntries(Object.entries(ours).map(([key, value]) => [`ours_${key}`, value])),
    ...Object.fromEntries(Object.entries(bare).map(([key, value]) => [`bare_${key}`, value])),
    flows_ratio: ratio(ours.flows_per_s, bare.flows_per_s),
    userinfo_ratio: ratio(ours.userinfo_rps, bare.userinfo_rps),
    introspect_ratio: ratio(ours.introspect_rps, bare.introspect_rps),
    bare_koa_profile_rps: bareKoa.rps,
    bare_koa_profile_p99_ms: bareKoa.p99,
    bare_koa_profile_cpu_us: bareKoa.cpu_us,
    profile_ratio: ratio(ours.profile_rps ?? 0, bareKoa.rps),
    // Ours doing nothing (/healthz) against bare Koa: how much of the profile gap is the shared middleware stack.
    healthz_ratio: ratio(ours.healthz_rps ?? 0, bareKoa.rps),
    flows_target_met: ours.flows_per_s >= 0.9 * bare.flows_per_s ? 1 : 0,
    userinfo_target_met: ours.userinfo_rps >= 0.6 * bare.userinfo_rps ? 1 : 0,
    introspect_target_met: ours.introspect_rps >= 0.6 * bare.introspect_rps ? 1 : 0,
    p99_target_met: ours.userinfo_p99_ms < 20 && ours.introspect_p99_ms < 20 ? 1 : 0,
    profile_target_met: (ours.profile_rps ?? 0) >= 0.3 * bareKoa.rps ? 1 : 0,
    database_postgres: server ? 1 : 0,
  };
  const base = results.base;
  if (base) {
    Object.assign(figures, {
      ...Object.fromEntries(Object.entries(base).map(([key, value]) => [`base_${key}`, value])),
      base_flows_ratio: ratio(base.flows_per_s, bare.flows_per_s),
      base_userinfo_ratio: ratio(base.userinfo_rps, bare.userinfo_rps),
      base_introspect_ratio: ratio(base.introspect_rps, bare.introspect_rps),
    });
  }
  console.log(
    `OIDC ours/bare (${server ? 'PostgreSQL' : 'SQLite'}): flows ${figures.flows_ratio} ` +
      `(target ≥ 0.9), userinfo ${figures.userinfo_ratio} and introspection ${figures.introspect_ratio} ` +
      `(targets ≥ 0.6), p99 ${ours.userinfo_p99_ms}/${ours.introspect_p99_ms} ms (target < 20); ` +
      `GET /users/profile vs bare Koa ${figures.profile_ratio} (target ≥ 0.3; /healthz ${figures.healthz_ratio})`,
  );
  return figures;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Alone: SQLite, or only PostgreSQL with OIDC_BENCH_DATABASE_URL; OIDC_BENCH_BOTH=1 runs both as npm run bench does.
  (process.env.OIDC_BENCH_BOTH ? runOidcBench() : runOidcBenchOn(process.env.OIDC_BENCH_DATABASE_URL ?? null))
    .then((figures) =>
      console.table(Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, { value: v }]))),
    )
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
