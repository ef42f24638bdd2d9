/**
 * `npm run bench`: starts the built server on a fresh SQLite database and loads it with autocannon, then runs
 * the benchmarks of the other areas that are present (web bundle/FCP, OIDC flows, vision, age heads A/B). Prints a table per
 * area and, last, one JSON line with every figure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { hashPassword } from '../src/lib/passwords';
import { freePort } from '../test/http';
import { stopProcess } from '../test/server-process';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const serverEntry = path.join(root, 'apps/api/dist/server.js');
const PASSWORD_COST = 15;

async function waitReady(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${baseUrl}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('server did not become ready in 120 s');
}

async function json(url: string, body: unknown, token?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => null)) as Record<string, unknown> | null,
  };
}

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function passwordHashMs(samples = 8): Promise<number> {
  await hashPassword('warm-up password', PASSWORD_COST);
  const started = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < samples; i += 1) await hashPassword(`password ${i}`, PASSWORD_COST);
  const cpu = process.cpuUsage(started);
  const wallMs = (performance.now() - wall) / samples;
  return Math.max(wallMs, (cpu.user + cpu.system) / 1000 / samples);
}

async function benchApi(baseUrl: string) {
  const email = 'bench@example.com';
  const password = 'bench password 123';
  await json(`${baseUrl}/api/v1/users/register`, { full_name: 'Bench User', email, password });
  const login = await json(`${baseUrl}/api/v1/users/login`, { email, password, rememberMe: true });
  const token = login.body?.access_token as string;
  if (!token) throw new Error(`login failed: ${login.status}`);

  const profile = await run({
    url: `${baseUrl}/api/v1/users/profile`,
    connections: 32,
    duration: 10,
    headers: { authorization: `Bearer ${token}` },
  });
  let n = 0;
  const logins = await run({
    url: `${baseUrl}/api/v1/users/login`,
    method: 'POST',
    connections: 8,
    duration: 10,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
    // A different client address per request (the server trusts X-Forwarded-For in the bench) so that the
    // per-IP login limit, which is working as intended, does not turn the measurement into 429s.
    setupClient: (client) => {
      client.setHeaders({
        'content-type': 'application/json',
        'x-forwarded-for': `10.0.${(n >> 8) & 255}.${n++ & 255}`,
      });
    },
  });
  return {
    profile_rps: Math.round(profile.requests.average),
    profile_p50_ms: profile.latency.p50,
    profile_p99_ms: profile.latency.p99,
    profile_non2xx: profile.non2xx,
    login_rps: Math.round(logins.requests.average * 10) / 10,
    login_p99_ms: logins.latency.p99,
    login_non2xx: logins.non2xx,
    password_hash_cpu_ms: Math.round((await passwordHashMs()) * 10) / 10,
  };
}

function table(title: string, figures: Record<string, unknown>) {
  console.log(`\n${title}`);
  console.table(Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, { value }])));
}

async function optional(
  modulePath: string,
  exportName: string,
): Promise<((...args: never[]) => Promise<unknown>) | null> {
  if (!existsSync(path.join(root, modulePath))) return null;
  const module = (await import(path.join(root, modulePath))) as Record<string, unknown>;
  return (module[exportName] as (...args: never[]) => Promise<unknown>) ?? null;
}

/** A bench printed as a table: the file and export to run when present, where its figures go, the table's title. */
interface TableBench {
  key: string;
  module: string;
  exportName: string;
  title: string;
  args?: unknown[];
}

async function tableBench(results: Record<string, unknown>, bench: TableBench): Promise<void> {
  const run = (await optional(bench.module, bench.exportName)) as
    ((...a: unknown[]) => Promise<unknown>) | null;
  if (!run) return;
  results[bench.key] = await run(...(bench.args ?? []));
  table(bench.title, results[bench.key] as Record<string, unknown>);
}

async function main() {
  if (!existsSync(serverEntry)) {
    console.error('Build first: npm run build');
    process.exit(1);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-bench-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [serverEntry], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ATTESTLY_DATA_DIR: dataDir,
      ATTESTLY_PUBLIC_URL: baseUrl,
      ATTESTLY_TRUST_PROXY: 'true',
      ATTESTLY_PASSWORD_COST: String(PASSWORD_COST),
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const results: Record<string, unknown> = {};
  try {
    await waitReady(baseUrl, child);
    results.api = await benchApi(baseUrl);
    table(
      'API (SQLite, 2 cores): GET /users/profile and POST /users/login',
      results.api as Record<string, unknown>,
    );

    // The benches before the back office's, then the rest, each printed as a table (tableBench).
    for (const bench of [
      {
        key: 'web',
        module: 'apps/web/bench/web-bench.ts',
        exportName: 'runWebBench',
        title: 'Web: gzip bytes per route chunk, landing FCP',
        args: [baseUrl],
      },
      {
        key: 'oidc',
        module: 'apps/api/bench/oidc-bench.ts',
        exportName: 'runOidcBench',
        title: 'OpenID Connect: full flows, userinfo, introspection (ours vs bare oidc-provider)',
      },
      {
        key: 'scale_out',
        module: 'apps/api/bench/scale-out-bench.ts',
        exportName: 'runScaleOutBench',
        title: 'Scale-out on PostgreSQL: OIDC flows/s with 1 and 3 replicas behind round robin',
      },
    ])
      await tableBench(results, bench);
    const admin = await optional('apps/api/bench/admin-bench.ts', 'runAdminBench');
    if (admin) {
      results.admin = await (admin as () => Promise<Record<string, unknown>>)();
      for (const dialect of ['sqlite', 'postgres']) {
        const outcome = (results.admin as Record<string, { pages: Record<string, unknown> } | undefined>)[
          dialect
        ];
        if (!outcome) continue;
        console.log(
          `\nBack office lists on ${dialect} (100k users, 300k verifications, 1M audit rows): p50/p95 ms`,
        );
        console.table(outcome.pages);
      }
    }
    for (const bench of [
      {
        key: 'webhooks',
        module: 'apps/api/bench/webhooks-bench.ts',
        exportName: 'runWebhooksBench',
        title:
          'Webhooks: signed deliveries/s, event-to-delivery latency under verification load, quota check',
      },
      {
        key: 'partner_stats',
        module: 'apps/api/bench/partner-stats-bench.ts',
        exportName: 'runPartnerStatsBench',
        title: 'Partner statistics: GET /partners/stats with 1,000,000 verifications (target < 200 ms)',
      },
      {
        key: 'wallet',
        module: 'apps/api/bench/wallet-bench.ts',
        exportName: 'runWalletBench',
        title:
          'Wallet credentials: a batch of 30 at the credential endpoint, one presentation verified (p50 ms)',
      },
      {
        key: 'vision',
        module: 'models/bench/vision-bench.ts',
        exportName: 'runVisionBench',
        title: 'Vision: photo and video verification',
      },
      {
        key: 'age_head_ab',
        module: 'models/bench/age-head-ab.ts',
        exportName: 'runAgeHeadAb',
        title: 'Age heads: the default head against the faceres head of the same build, taking turns',
      },
      {
        key: 'age_pipeline_ab',
        module: 'models/bench/age-head-ab.ts',
        exportName: 'runAgeHeadAbBeforeIssue22',
        title:
          'Age: the default engine against the pipeline before issue 22 (commit 4193825), taking turns (ratios ≤ 1.2)',
      },
    ])
      await tableBench(results, bench);
  } finally {
    await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(results));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
