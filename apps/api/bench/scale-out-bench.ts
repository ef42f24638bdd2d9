/**
 * Scale-out benchmark (issue 13): complete OpenID Connect authorization-code + PKCE flows per second on
 * PostgreSQL with one replica and with three, behind the same in-process round-robin proxy (so every flow's
 * requests spread over the replicas exactly as in apps/api/test/scale-out.test.ts), and the ratio. All replicas run
 * on this machine: they share its cores, so the ratio measures what the shared database and the stateless design
 * cost or allow, not what more machines would add.
 *
 * Database: BENCH_DATABASE_URL, else TEST_DATABASE_URL when it is PostgreSQL, else
 * postgres://postgres@127.0.0.1:5432/postgres; a throwaway database is created and dropped.
 * Run alone: `npx tsx apps/api/bench/scale-out-bench.ts` (after `npm run build`); `npm run bench` imports
 * `runScaleOutBench`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { CookieJar as Jar } from '../test/http';
import { stopProcess } from '../test/server-process';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const builtServer = path.join(root, 'apps/api/dist/server.js');
const CLIENTS = 16;
const FLOW_SECONDS = 10;
const SCOPE = 'openid basic_info AGE_18';
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  (process.env.TEST_DATABASE_URL && /^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL)
    ? process.env.TEST_DATABASE_URL
    : 'postgres://postgres@127.0.0.1:5432/postgres');

interface Replica {
  child: ChildProcess;
  port: number;
  dataDir: string;
}

function startReplica(env: NodeJS.ProcessEnv): Promise<Replica> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-scale-bench-'));
  const child = spawn(process.execPath, [builtServer], {
    env: { ...process.env, ...env, ATTESTLY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Keep draining both streams: a full pipe would block the server's logger.
  child.stdout?.on('data', (chunk: Buffer) => {
    if (output.length < 100_000) output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (output.length < 100_000) output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`replica did not start:\n${output}`)), 120_000);
    const poll = setInterval(() => {
      const match = /"port":(\d+)[^\n]*Attestly listening/.exec(output);
      if (!match) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ child, port: Number(match[1]), dataDir });
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`replica exited with ${code}:\n${output}`));
    });
  });
}

async function stopReplica(replica: Replica): Promise<void> {
  await stopProcess(replica.child);
  rmSync(replica.dataDir, { recursive: true, force: true });
}

/** The one public URL of every replica: each request goes to the next replica in turn. */
function roundRobin(replicas: Replica[]): Promise<{ server: Server; url: string }> {
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const target = replicas[next++ % replicas.length] as Replica;
    const forwarded = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

async function postJson(url: string, body: unknown, jar?: Jar, bearer?: string) {
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  };
  const response = jar ? await jar.fetch(url, init) : await fetch(url, init);
  const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.status >= 300) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return json ?? {};
}

interface Setup {
  client: { client_id: string; client_secret: string; redirect_uri: string };
  user: { email: string; password: string };
}

/** A partner with a confidential site, and a user (through the proxy, so on any replica). */
async function setUp(base: string): Promise<Setup> {
  const partner = { email: 'scale-partner@example.com', password: 'scale partner password' };
  await postJson(`${base}/api/v1/partners/register`, {
    ...partner,
    company_name: 'Scale Co',
    business_type: 'Gaming',
  });
  const login = await postJson(`${base}/api/v1/partners/login`, partner);
  const redirectUri = 'https://rp.scale.example/callback';
  const site = await postJson(
    `${base}/api/v1/partners/sites`,
    {
      site_name: 'Scale Site',
      domain: 'rp.scale.example',
      redirect_uris: [redirectUri],
      allowed_scopes: ['basic_info', 'AGE_18'],
    },
    undefined,
    String(login.access_token),
  );
  const user = { email: 'scale-user@example.com', password: 'scale user password' };
  await postJson(`${base}/api/v1/users/register`, { full_name: 'Scale User', ...user });
  return {
    client: {
      client_id: String(site.client_id),
      client_secret: String(site.client_secret),
      redirect_uri: redirectUri,
    },
    user,
  };
}

/** One flow: authorize (PKCE) → the provider's redirects (signing in and consenting when asked) → token. */
async function flow(base: string, setup: Setup, jar: Jar): Promise<void> {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const params = new URLSearchParams({
    client_id: setup.client.client_id,
    response_type: 'code',
    redirect_uri: setup.client.redirect_uri,
    scope: SCOPE,
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  let location = `${base}/oauth2/authorize?${params}`;
  for (let hop = 0; !location.startsWith(setup.client.redirect_uri); hop += 1) {
    if (hop > 10) throw new Error('too many redirects');
    const url = new URL(location);
    if (url.pathname === '/oauth/login' || url.pathname === '/oauth/consent') {
      const api = `${base}/api/v1/oauth/interactions/${url.searchParams.get('uid')}`;
      const answer =
        url.pathname === '/oauth/login'
          ? await postJson(`${api}/login`, setup.user, jar)
          : await postJson(`${api}/consent`, { scopes: ['basic_info', 'AGE_18'] }, jar);
      location = String(answer.redirect_to);
      continue;
    }
    const response = await jar.fetch(location);
    await response.arrayBuffer();
    const next = response.headers.get('location');
    if (!next) throw new Error(`no redirect from ${url.pathname} (${response.status})`);
    location = new URL(next, location).href;
  }
  const callback = new URL(location);
  const code = callback.searchParams.get('code');
  if (!code || callback.searchParams.get('state') !== state) throw new Error(`bad callback ${location}`);
  const credentials = Buffer.from(
    `${encodeURIComponent(setup.client.client_id)}:${encodeURIComponent(setup.client.client_secret)}`,
  ).toString('base64');
  const response = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${credentials}` },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: setup.client.redirect_uri,
      code_verifier: verifier,
    }).toString(),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`token ${response.status}`);
}

async function measure(
  base: string,
  setup: Setup,
  jars: Jar[],
): Promise<{ flows_per_s: number; errors: number }> {
  // Setup, not measured: each client signs in once (the first also consents); later flows reuse both. The same
  // clients serve both runs, so 16 sign-ins in all stay under the sign-in limit (30 a minute per address).
  for (const jar of jars) await flow(base, setup, jar);
  let flows = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + FLOW_SECONDS * 1000;
  await Promise.all(
    jars.map(async (jar) => {
      while (performance.now() < deadline) {
        try {
          await flow(base, setup, jar);
          flows += 1;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { flows_per_s: Math.round((flows / seconds) * 10) / 10, errors };
}

export async function runScaleOutBench(): Promise<Record<string, number>> {
  if (!existsSync(builtServer)) throw new Error('Build first: npm run build');
  const name = `attestly_scale_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const replicas: Replica[] = [];
  const proxy = await roundRobin(replicas);
  const env = {
    DATABASE_URL: url.toString(),
    ATTESTLY_PUBLIC_URL: proxy.url,
    ATTESTLY_MASTER_KEY: randomBytes(32).toString('hex'),
    ATTESTLY_VISION: 'false',
    ATTESTLY_PASSWORD_COST: '12',
    ATTESTLY_PARTNER_INITIAL_STATUS: 'active', // no mailbox to open the partner's e-mail link from
    // info: the start-up line carries the port; access lines are buffered (logger.ts) and cost both sides alike.
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
  };
  try {
    replicas.push(await startReplica(env));
    const setup = await setUp(proxy.url);
    const jars = Array.from({ length: CLIENTS }, () => new Jar());
    const one = await measure(proxy.url, setup, jars);
    replicas.push(...(await Promise.all([startReplica(env), startReplica(env)])));
    const three = await measure(proxy.url, setup, jars);
    return {
      cpus: availableParallelism(),
      clients: CLIENTS,
      replicas_1_flows_per_s: one.flows_per_s,
      replicas_1_errors: one.errors,
      replicas_3_flows_per_s: three.flows_per_s,
      replicas_3_errors: three.errors,
      ratio_3_to_1: one.flows_per_s > 0 ? Math.round((three.flows_per_s / one.flows_per_s) * 100) / 100 : 0,
    };
  } finally {
    await Promise.all(replicas.map(stopReplica));
    proxy.server.closeAllConnections();
    await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runScaleOutBench().then(
    (figures) => {
      console.table(Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, { value }])));
      console.log(JSON.stringify({ scale_out: figures }));
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
