/**
 * Back-office lists under load (issue 9 "Performance"): seeds 100,000 users, 300,000 verifications and 1,000,000
 * audit rows (plus partners, flags, grants and access tokens) with set-based INSERT … SELECT statements, then
 * measures p50/p95 of every admin list, filter and search page over HTTP, on SQLite and — when a server is given
 * by ATTESTLY_BENCH_PG_URL or TEST_DATABASE_URL — on PostgreSQL. Target: p95 < 150 ms.
 *
 * Run alone: `npx tsx apps/api/bench/admin-bench.ts` (or as part of `npm run bench`). ADMIN_BENCH_DIALECTS
 * (comma-separated, `sqlite,postgres` by default) picks the databases, e.g. `ADMIN_BENCH_DIALECTS=postgres` with
 * ATTESTLY_BENCH_PG_URL for PostgreSQL alone; ADMIN_BENCH_USERS, ADMIN_BENCH_VERIFICATIONS, ADMIN_BENCH_AUDIT and
 * ADMIN_BENCH_SAMPLES shrink the run; ADMIN_BENCH_PAGES (a regular expression) times only the pages whose names
 * match, e.g. `ADMIN_BENCH_PAGES=search`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createApp } from '../src/app';
import { bootstrap } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import type { Database } from '../src/db/database';
import { createLogger } from '../src/logger';

const SIZES = {
  users: Number(process.env.ADMIN_BENCH_USERS ?? 100_000),
  verifications: Number(process.env.ADMIN_BENCH_VERIFICATIONS ?? 300_000),
  audit: Number(process.env.ADMIN_BENCH_AUDIT ?? 1_000_000),
  partners: 1_000,
  grants: 50_000,
  tokens: 50_000,
  flags: 2_000,
};
const SAMPLES = Number(process.env.ADMIN_BENCH_SAMPLES ?? 30);
const TARGET_P95_MS = 150;
/** Seeded times are relative to the run's start (whole seconds), so live tokens and grants are live when measured. */
const BASE = new Date(Math.floor(Date.now() / 1000) * 1000);
const ADMIN_ID = '00000000-0000-4000-8000-00000000a000';

type Dialect = 'sqlite' | 'postgres';

/** Dialect-specific SQL pieces for generated rows. */
function sqlFor(dialect: Dialect) {
  if (dialect === 'sqlite') {
    const seq = (n: number) =>
      `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${n - 1})`;
    return {
      seq,
      from: 's',
      uuid: (tag: string, expr: string) => `printf('%08x-${tag}-4000-8000-%012x', ${expr}, ${expr})`,
      // SQLite date modifiers take a signed count ('-90 seconds'); dates are stored as Sequelize writes them.
      ago: (seconds: string) =>
        `strftime('%Y-%m-%d %H:%M:%f', '${BASE.toISOString().slice(0, 19).replace('T', ' ')}', (-(${seconds})) || ' seconds') || ' +00:00'`,
      ahead: (seconds: string) =>
        `strftime('%Y-%m-%d %H:%M:%f', '${BASE.toISOString().slice(0, 19).replace('T', ' ')}', (${seconds}) || ' seconds') || ' +00:00'`,
      text: (expr: string) => `CAST(${expr} AS TEXT)`,
      bool: (expr: string) => `(CASE WHEN ${expr} THEN 1 ELSE 0 END)`,
    };
  }
  return {
    seq: (n: number) => `WITH s(i) AS (SELECT generate_series(0, ${n - 1}))`,
    from: 's',
    uuid: (tag: string, expr: string) =>
      `(lpad(to_hex(${expr}), 8, '0') || '-${tag}-4000-8000-' || lpad(to_hex(${expr}), 12, '0'))::uuid`,
    ago: (seconds: string) => `(TIMESTAMPTZ '${BASE.toISOString()}' - (${seconds}) * INTERVAL '1 second')`,
    ahead: (seconds: string) => `(TIMESTAMPTZ '${BASE.toISOString()}' + (${seconds}) * INTERVAL '1 second')`,
    text: (expr: string) => `(${expr})::text`,
    bool: (expr: string) => `(${expr})`,
  };
}

async function exec(db: Database, sql: string): Promise<void> {
  if (db.dialect === 'sqlite') await db.write(sql, {});
  else await db.sequelize.query(sql);
}

/** Set-based seeding: each table is one INSERT … SELECT over a generated sequence (exported for ad-hoc plan checks). */
export async function seed(db: Database): Promise<Record<string, number>> {
  const q = sqlFor(db.dialect as Dialect);
  const timings: Record<string, number> = {};
  const step = async (name: string, sql: string) => {
    const started = performance.now();
    await exec(db, sql);
    timings[name] = Math.round(performance.now() - started);
  };
  const day = 86_400;
  await step(
    'users',
    `${q.seq(SIZES.users)} INSERT INTO users (id, email, password_hash, full_name, phone, country, state, city,
      email_verified_at, proven_min_age, age_verified_at, age_verified_until, location_country, location_verified_at,
      location_verified_until, identity_verified_at, identity_verified_until, is_active, is_partner, login_attempts,
      locked_until, last_login_at, created_at, updated_at)
     SELECT ${q.uuid('0000', 'i')}, 'bench.user.' || ${q.text('i')} || '@example.com', 'scrypt$1$8$1$x$y',
      'Bench User ' || ${q.text('i')}, NULL,
      CASE i % 6 WHEN 0 THEN 'US' WHEN 1 THEN 'CA' WHEN 2 THEN 'GB' WHEN 3 THEN 'AU' WHEN 4 THEN 'DE' ELSE 'FR' END,
      NULL, NULL, ${q.ago(`i % (90 * ${day})`)},
      CASE WHEN i % 3 = 0 THEN 18 ELSE NULL END,
      CASE WHEN i % 3 = 0 THEN ${q.ago(`i % (30 * ${day})`)} ELSE NULL END,
      CASE WHEN i % 3 = 0 THEN ${q.ahead(`(i % 300) * ${day}`)} ELSE NULL END,
      CASE WHEN i % 5 = 0 THEN 'GB' ELSE NULL END,
      CASE WHEN i % 5 = 0 THEN ${q.ago(`i % (30 * ${day})`)} ELSE NULL END,
      CASE WHEN i % 5 = 0 THEN ${q.ahead(`(i % 300) * ${day}`)} ELSE NULL END,
      NULL, CASE WHEN i % 11 = 0 THEN ${q.ahead(`(i % 300) * ${day}`)} ELSE NULL END,
      ${q.bool('TRUE')}, ${q.bool('FALSE')}, 0, NULL, ${q.ago(`i % (40 * ${day})`)},
      ${q.ago(`i % (365 * ${day})`)}, ${q.ago(`i % (365 * ${day})`)}
     FROM ${q.from}`,
  );
  await step(
    'partners',
    `${q.seq(SIZES.partners)} INSERT INTO partners (id, email, password_hash, company_name, contact_name, phone, website,
      business_type, status, plan, login_attempts, locked_until, last_login_at, created_at, updated_at)
     SELECT ${q.uuid('0002', 'i')}, 'partner.' || ${q.text('i')} || '@example.com', 'scrypt$1$8$1$x$y',
      'Bench Partner ' || ${q.text('i')}, 'Contact ' || ${q.text('i')}, NULL, 'https://p' || ${q.text('i')} || '.example',
      'Gaming', CASE i % 10 WHEN 0 THEN 'suspended' WHEN 1 THEN 'pending_verification' ELSE 'active' END,
      CASE i % 4 WHEN 0 THEN 'free' WHEN 1 THEN 'starter' WHEN 2 THEN 'growth' ELSE 'scale' END, 0, NULL, NULL,
      ${q.ago(`i * 600`)}, ${q.ago(`i * 600`)}
     FROM ${q.from}`,
  );
  await step(
    'sites',
    `${q.seq(SIZES.partners)} INSERT INTO sites (id, partner_id, client_id, client_type, client_secret_hash, site_name, domain,
      description, redirect_uris, allowed_scopes, icon_key, is_active, deleted_at, created_at, updated_at)
     SELECT ${q.uuid('0003', 'i')}, ${q.uuid('0002', 'i')}, 'atc_bench_' || ${q.text('i')}, 'confidential', NULL,
      'Site ' || ${q.text('i')}, 's' || ${q.text('i')} || '.example.com', NULL, '["https://s.example.com/cb"]',
      '["basic_info","AGE_18"]', NULL, ${q.bool('TRUE')}, NULL, ${q.ago('i * 600')}, ${q.ago('i * 600')}
     FROM ${q.from}`,
  );
  await step(
    'verifications',
    `${q.seq(SIZES.verifications)} INSERT INTO verifications (id, user_id, verification_type, verification_method, status,
      confidence_score, age_threshold, needs_manual_review, message, result_details, document_analysis, review_notes,
      subject_fingerprint, partner_id, site_id, reviewed_at, reviewed_by, expires_at, created_at, updated_at)
     SELECT ${q.uuid('0001', 'i')}, ${q.uuid('0000', `i % ${SIZES.users}`)},
      CASE i % 3 WHEN 0 THEN 'age' WHEN 1 THEN 'location' ELSE 'identity' END,
      CASE i % 4 WHEN 0 THEN 'document' WHEN 1 THEN 'facial_recognition' WHEN 2 THEN 'credit_card' ELSE 'ip_geolocation' END,
      CASE WHEN i % 50 = 0 THEN 'pending' WHEN i % 10 = 1 THEN 'rejected' WHEN i % 10 = 2 THEN 'failed' ELSE 'approved' END,
      0.8, 18, ${q.bool('i % 50 = 0')}, 'bench', '{}', NULL, '[]', NULL,
      CASE WHEN i % 4 = 0 THEN ${q.text(q.uuid('0002', `i % ${SIZES.partners}`))} ELSE NULL END, NULL, NULL, NULL, NULL,
      ${q.ago(`i % (180 * ${day})`)}, ${q.ago(`i % (180 * ${day})`)}
     FROM ${q.from}`,
  );
  await step(
    'audit_logs',
    `${q.seq(SIZES.audit)} INSERT INTO audit_logs (event_type, severity, user_id, partner_id, admin_user_id, ip_address,
      user_agent, details, created_at, prev_hash, hash)
     SELECT CASE i % 12 WHEN 0 THEN 'user.login_succeeded' WHEN 1 THEN 'user.login_failed' WHEN 2 THEN 'oauth.token_issued'
        WHEN 3 THEN 'verification.completed' WHEN 4 THEN 'user_flagged' WHEN 5 THEN 'partner_updated'
        WHEN 6 THEN 'verification_approved' WHEN 7 THEN 'user.registered' WHEN 8 THEN 'oauth.consent_granted'
        WHEN 9 THEN 'verification.submitted' WHEN 10 THEN 'token_revoked' ELSE 'admin_login' END,
      CASE WHEN i % 9 = 1 THEN 'warning' WHEN i % 97 = 0 THEN 'error' ELSE 'info' END,
      ${q.text(q.uuid('0000', `i % ${SIZES.users}`))},
      CASE WHEN i % 3 = 0 THEN ${q.text(q.uuid('0002', `i % ${SIZES.partners}`))} ELSE NULL END,
      CASE WHEN i % 100 = 0 THEN '${ADMIN_ID}' ELSE NULL END, '10.0.0.1', 'bench', '{}',
      ${q.ago(`(${SIZES.audit} - i) * 3`)}, 'p' || ${q.text('i')}, 'h' || ${q.text('i')}
     FROM ${q.from}`,
  );
  await step(
    'user_flags',
    `${q.seq(SIZES.flags)} INSERT INTO user_flags (id, user_id, reason, priority, reviewer_notes, flagged_by, created_at,
      resolved_at, resolved_by, resolution_notes)
     SELECT ${q.uuid('0004', 'i')}, ${q.uuid('0000', `(i * 37) % ${SIZES.users}`)}, 'bench', 'medium', NULL, '${ADMIN_ID}', ${q.ago('i * 60')},
      NULL, NULL, NULL
     FROM ${q.from}`,
  );
  await step(
    'oauth_authorizations',
    `${q.seq(SIZES.grants)} INSERT INTO oauth_authorizations (id, user_id, partner_id, site_id, client_id, scopes,
      age_threshold, jurisdiction, created_at, updated_at, expires_at, last_used_at, revoked_at, revoked_reason)
     SELECT 'grant_bench_' || ${q.text('i')}, ${q.uuid('0000', `i % ${SIZES.users}`)},
      ${q.uuid('0002', `i % ${SIZES.partners}`)}, ${q.uuid('0003', `i % ${SIZES.partners}`)},
      'atc_bench_' || ${q.text(`i % ${SIZES.partners}`)}, '["basic_info","AGE_18"]', 18, NULL,
      ${q.ago(`i * 30`)}, ${q.ago(`i * 30`)}, ${q.ahead(`(i % 400) * ${day} - 30 * ${day}`)}, NULL,
      CASE WHEN i % 7 = 0 THEN ${q.ago('i')} ELSE NULL END, CASE WHEN i % 7 = 0 THEN 'user_revoked' ELSE NULL END
     FROM ${q.from}`,
  );
  await step(
    'oidc_payloads',
    `${q.seq(SIZES.tokens)} INSERT INTO oidc_payloads (model, id, payload, grant_id, user_code, uid, expires_at, consumed_at)
     SELECT 'AccessToken', 'at_bench_' || ${q.text('i')},
      '{"clientId":"atc_bench_' || ${q.text(`i % ${SIZES.partners}`)} || '","scope":"openid basic_info","iat":1764140000}',
      'grant_bench_' || ${q.text(`i % ${SIZES.grants}`)}, NULL, NULL, ${q.ahead(`(i % 7200) - 3600`)}, NULL
     FROM ${q.from}`,
  );
  // Fresh statistics; on PostgreSQL also the visibility map that autovacuum keeps on a live server (without it a
  // freshly bulk-loaded table allows no index-only scans, which no running installation would see).
  await exec(db, db.dialect === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE');
  return timings;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** The pages the back office shows: every list with its filters and searches (spec 02 §7). */
function pages(): Array<[string, string]> {
  const day = (offset: number) => new Date(BASE.getTime() - offset * 86_400_000).toISOString().slice(0, 10);
  const user = '000003e8-0000-4000-8000-0000000003e8';
  const partner = '0000002a-0002-4000-8000-00000000002a';
  return [
    ['partners', '/partners'],
    ['partners search', '/partners?search=partner%2042'],
    ['partners status+plan', '/partners?status=active&plan=growth'],
    ['users', '/users'],
    ['users search', '/users?search=bench.user.2424'],
    ['users search short', '/users?search=42'],
    ['users search 1 char', '/users?search=e'],
    // A term of common trigrams that every user matches (every address is @example.com).
    ['users search common', '/users?search=example'],
    ['users verified', '/users?verification_status=verified'],
    ['users unverified', '/users?verification_status=unverified'],
    ['users pending', '/users?verification_status=pending'],
    ['users flagged', '/users?flagged_only=true'],
    ['users verified_only+country', '/users?verified_only=true&country=CA'],
    ['users country', '/users?country=GB'],
    ['users page 1000', '/users?skip=50000'],
    ['user detail', `/users/${user}`],
    ['verifications (queue)', '/verifications'],
    ['verifications needs_review', '/verifications?needs_review=true'],
    ['verifications status', '/verifications?status=rejected'],
    ['verifications type+method', '/verifications?type=identity&method=document'],
    ['verifications date range', `/verifications?start_date=${day(7)}&end_date=${day(0)}`],
    ['verifications search email', '/verifications?search=bench.user.777%40example.com'],
    ['verifications search short', '/verifications?search=42'],
    ['verifications search 1 char', '/verifications?search=4'],
    // Every case matches: the cases of every account.
    ['verifications search common', '/verifications?search=example'],
    ['verifications search id', `/verifications?search=${user}`],
    ['verifications page 2000', '/verifications?skip=100000'],
    ['tokens active', '/tokens?active_only=true'],
    ['tokens by user', `/tokens?user_id=${user}`],
    ['authorizations active', '/oauth-authorizations?active_only=true'],
    ['authorizations by partner', `/oauth-authorizations?partner_id=${partner}`],
    ['audit last 7 days', `/audit-logs?start_date=${day(7)}&end_date=${day(0)}`],
    ['audit all', '/audit-logs'],
    ['audit page 1000', '/audit-logs?skip=100000&limit=100'],
    ['audit event_type', '/audit-logs?event_type=user_flagged'],
    ['audit admin_user_id', `/audit-logs?admin_user_id=${ADMIN_ID}`],
    ['audit user_id', `/audit-logs?user_id=${user}`],
    ['audit partner+dates', `/audit-logs?partner_id=${partner}&start_date=${day(7)}&end_date=${day(0)}`],
    ['audit severity', '/audit-logs?severity=warning'],
    ['system stats', '/system/stats'],
  ];
}

async function measure(baseUrl: string, token: string) {
  const rows: Record<string, { p50: number; p95: number; total_count: number | null }> = {};
  const only = process.env.ADMIN_BENCH_PAGES ? new RegExp(process.env.ADMIN_BENCH_PAGES) : null;
  for (const [name, path] of pages().filter(([page]) => !only || only.test(page))) {
    const times: number[] = [];
    let total: number | null = null;
    for (let i = 0; i < SAMPLES + 3; i++) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/v1/admin${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await response.json()) as { total_count?: number };
      const ms = performance.now() - started;
      if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
      total = body.total_count ?? null;
      if (i >= 3) times.push(ms);
    }
    rows[name] = {
      p50: Math.round(percentile(times, 50) * 10) / 10,
      p95: Math.round(percentile(times, 95) * 10) / 10,
      total_count: total,
    };
  }
  return rows;
}

async function createPgDatabase(serverUrl: string) {
  const name = `attestly_admin_bench_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function benchOn(dialect: Dialect, pgServer: string | null) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-admin-bench-'));
  const database = dialect === 'postgres' && pgServer ? await createPgDatabase(pgServer) : null;
  const config = loadConfig({
    ATTESTLY_DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? undefined,
    ATTESTLY_PUBLIC_URL: 'http://127.0.0.1',
    ATTESTLY_PASSWORD_COST: '12',
    LOG_LEVEL: 'warn',
    ATTESTLY_WEB_DIR: path.join(dataDir, 'no-web'),
  });
  const logger = createLogger(config);
  const deps = await bootstrap(config, logger);
  const { app, services } = createApp(deps);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const seeded = await seed(deps.db);
    const admin = await services.admins.createAdmin({
      email: 'bench-admin@example.com',
      password: 'bench admin password',
    });
    const { token } = await services.sessions.issue('admin', admin.id, {
      remember: false,
      ttlMs: 8 * 3600_000,
      ip: null,
      userAgent: null,
    });
    const pagesMs = await measure(baseUrl, token);
    return { seed_ms: seeded, pages: pagesMs };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await deps.db.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runAdminBench() {
  const pgServer = process.env.ATTESTLY_BENCH_PG_URL ?? process.env.TEST_DATABASE_URL ?? null;
  const results: Record<string, unknown> = { sizes: SIZES, samples: SAMPLES, target_p95_ms: TARGET_P95_MS };
  const wanted = (process.env.ADMIN_BENCH_DIALECTS ?? 'sqlite,postgres')
    .split(',')
    .map((name) => name.trim());
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (!wanted.includes(dialect)) continue;
    if (dialect === 'postgres' && !pgServer) continue;
    const outcome = await benchOn(dialect, pgServer);
    const worst = Math.max(...Object.values(outcome.pages).map((page) => page.p95));
    results[dialect] = { ...outcome, worst_p95_ms: worst, target_met: worst < TARGET_P95_MS };
  }
  return results;
}

// Run directly: print a table per database and one JSON line.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runAdminBench()
    .then((results) => {
      for (const dialect of ['sqlite', 'postgres']) {
        const outcome = results[dialect] as
          { pages: Record<string, unknown>; seed_ms: unknown; worst_p95_ms: number } | undefined;
        if (!outcome) continue;
        console.log(
          `\nAdmin lists on ${dialect} (seed ms: ${JSON.stringify(outcome.seed_ms)}); worst p95 ${outcome.worst_p95_ms} ms`,
        );
        console.table(outcome.pages);
      }
      console.log(JSON.stringify(results));
      process.exit(0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
