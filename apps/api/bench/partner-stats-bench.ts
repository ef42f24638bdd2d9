/**
 * Partner statistics benchmark (issue 10): GET /partners/stats for a partner with 1,000,000 verifications must
 * answer in under 200 ms, because it reads roll-ups that database triggers keep on every write (migration
 * 20261126030100) instead of scanning verifications, in three index-bounded statements (partner-stats/service.ts).
 * Seeds the rows with set-based INSERTs (the triggers fire for each row, as they would for single writes), then
 * times the real HTTP endpoint. SQLite by default; PostgreSQL when
 * BENCH_DATABASE_URL is a postgres:// URL (its database gets the schema and the rows; use a throwaway one). Also
 * times the service alone (service_p50/p95_ms). `npm run bench` calls runPartnerStatsBench; or run this file with
 * tsx, under `nice -n 5` on a shared machine. BENCH_PARTNER_VERIFICATIONS changes the number of rows.
 *
 * The figures also count users who were already verified when they consented (issue 25 item 6), read from the
 * partner's grants at request time: BENCH_PARTNER_GRANTS (default 100,000) users each get a grant sharing an age
 * with one of the sites, without a verification of their own through the partner, and are counted once each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app';
import { bootstrap } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';

const TOTAL = Number(process.env.BENCH_PARTNER_VERIFICATIONS ?? 1_000_000);
const GRANTS = Number(process.env.BENCH_PARTNER_GRANTS ?? 100_000);
const CHUNK = 50_000;
const SAMPLES = 50;
/**
 * PostgreSQL only, BENCH_PARTNER_SEED=bulk: the rows are inserted with the triggers off (session_replication_role)
 * and the roll-ups built afterwards with one GROUP BY each, the same sums the triggers keep. For a machine where
 * a million trigger calls take too long; what is timed afterwards is the same.
 */
const BULK_SEED = process.env.BENCH_PARTNER_SEED === 'bulk';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export async function runPartnerStatsBench(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-stats-bench-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const config = loadConfig({
    ATTESTLY_DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ATTESTLY_PUBLIC_URL: 'http://127.0.0.1',
    ATTESTLY_PASSWORD_COST: '12',
    LOG_LEVEL: 'warn',
    ATTESTLY_WEB_DIR: path.join(dataDir, 'no-web'),
  });
  const deps = await bootstrap(config, createLogger(config));
  const { app, services } = createApp(deps);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const { Partner, Site, User } = deps.db.models;
    const partner = await Partner.create({
      email: 'stats-bench@example.com',
      password_hash: 'x',
      company_name: 'Stats Bench',
      contact_name: null,
      phone: null,
      website: null,
      business_type: null,
      locked_until: null,
      last_login_at: null,
    });
    const sites = await Promise.all(
      [0, 1, 2].map((index) =>
        Site.create({
          partner_id: partner.id,
          client_id: `atc_bench_${index}`,
          client_type: 'public',
          client_secret_hash: null,
          site_name: `Bench ${index}`,
          domain: 'shop.example.com',
          description: null,
          redirect_uris: ['https://shop.example.com/cb'],
          allowed_scopes: ['basic_info', 'AGE_18'],
          icon_key: null,
          deleted_at: null,
        }),
      ),
    );
    const countries = ['GB', 'FR', 'DE', 'US', 'ES', 'IT', 'NL'];
    const users = await Promise.all(
      countries.map((country, index) =>
        User.create({
          full_name: `Bench ${index}`,
          email: `bench-${index}@example.com`,
          password_hash: 'x',
          location_country: country,
        } as never),
      ),
    );
    const postgres = deps.db.dialect === 'postgres';
    const seedStarted = performance.now();
    for (let offset = 0; offset < TOTAL; offset += CHUNK) {
      const count = Math.min(CHUNK, TOTAL - offset);
      // Rows spread over the last 365 days, the three sites, seven users; 80% approved, 15% rejected, 5% pending.
      const sql = postgres
        ? `INSERT INTO verifications (id, user_id, verification_type, verification_method, status, age_threshold,
             needs_manual_review, message, result_details, review_notes, partner_id, site_id, sandbox, created_at,
             updated_at)
           SELECT gen_random_uuid(), (ARRAY[${users.map((u) => `'${u.id}'::uuid`).join(',')}])[1 + n % ${users.length}],
             'age', 'credit_card',
             CASE WHEN n % 20 < 16 THEN 'approved' WHEN n % 20 < 19 THEN 'rejected' ELSE 'pending' END,
             18, false, 'bench', '{}', '[]', '${partner.id}',
             (ARRAY[${sites.map((s) => `'${s.id}'`).join(',')}])[1 + n % ${sites.length}], false,
             NOW() - ((n % 365) || ' days')::interval, NOW()
           FROM generate_series(${offset}, ${offset + count - 1}) AS n`
        : `WITH RECURSIVE seq(n) AS (SELECT ${offset} UNION ALL SELECT n + 1 FROM seq WHERE n < ${offset + count - 1})
           INSERT INTO verifications (id, user_id, verification_type, verification_method, status, age_threshold,
             needs_manual_review, message, result_details, review_notes, partner_id, site_id, sandbox, created_at,
             updated_at)
           SELECT lower(hex(randomblob(16))),
             CASE n % ${users.length} ${users.map((u, i) => `WHEN ${i} THEN '${u.id}'`).join(' ')} END,
             'age', 'credit_card',
             CASE WHEN n % 20 < 16 THEN 'approved' WHEN n % 20 < 19 THEN 'rejected' ELSE 'pending' END,
             18, 0, 'bench', '{}', '[]', '${partner.id}',
             CASE n % ${sites.length} ${sites.map((s, i) => `WHEN ${i} THEN '${s.id}'`).join(' ')} END, 0,
             strftime('%Y-%m-%d %H:%M:%f +00:00', 'now', '-' || (n % 365) || ' days'),
             strftime('%Y-%m-%d %H:%M:%f +00:00', 'now')
           FROM seq`;
      if (postgres && BULK_SEED) {
        await deps.db.sequelize.transaction(async (transaction) => {
          await deps.db.sequelize.query('SET LOCAL session_replication_role = replica', { transaction });
          await deps.db.sequelize.query(sql, { transaction });
        });
      } else {
        await deps.db.sequelize.query(sql);
      }
    }
    if (postgres && BULK_SEED) {
      const replacements = { partnerId: partner.id };
      await deps.db.sequelize.query(
        `INSERT INTO partner_stats_daily
           (partner_id, site_id, day, verifications, succeeded, failed, sandbox, response_count, response_ms_sum)
         SELECT partner_id, COALESCE(site_id, ''), to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'),
           SUM(CASE WHEN sandbox THEN 0 ELSE 1 END),
           SUM(CASE WHEN NOT sandbox AND status = 'approved' THEN 1 ELSE 0 END),
           SUM(CASE WHEN NOT sandbox AND status IN ('rejected', 'failed') THEN 1 ELSE 0 END),
           SUM(CASE WHEN sandbox THEN 1 ELSE 0 END), 0, 0
         FROM verifications WHERE partner_id = :partnerId GROUP BY 1, 2, 3`,
        { replacements },
      );
      await deps.db.sequelize.query(
        `INSERT INTO partner_stats_countries (partner_id, country, verifications)
         SELECT v.partner_id, u.location_country, COUNT(*) FROM verifications v JOIN users u ON u.id = v.user_id
         WHERE v.partner_id = :partnerId AND NOT v.sandbox AND u.location_country IS NOT NULL GROUP BY 1, 2`,
        { replacements },
      );
    }
    // Users verified elsewhere who shared an age with one of the sites: a user and a grant each.
    for (let offset = 0; offset < GRANTS; offset += CHUNK) {
      const count = Math.min(CHUNK, GRANTS - offset);
      const range = postgres ? `generate_series(${offset}, ${offset + count - 1}) AS n` : 'seq';
      const recursive = postgres
        ? ''
        : `WITH RECURSIVE seq(n) AS (SELECT ${offset} UNION ALL SELECT n + 1 FROM seq WHERE n < ${offset + count - 1}) `;
      const userId = postgres
        ? `('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid`
        : `printf('00000000-0000-4000-8000-%012d', n)`;
      const now = postgres ? 'NOW()' : `strftime('%Y-%m-%d %H:%M:%f +00:00', 'now')`;
      const daysAgo = postgres
        ? `NOW() - ((n % 365) || ' days')::interval`
        : `strftime('%Y-%m-%d %H:%M:%f +00:00', 'now', '-' || (n % 365) || ' days')`;
      const inAYear = postgres
        ? `NOW() + interval '365 days'`
        : `strftime('%Y-%m-%d %H:%M:%f +00:00', 'now', '+365 days')`;
      await deps.db.sequelize.query(
        `${recursive}INSERT INTO users (id, email, password_hash, full_name, is_active, is_partner, login_attempts,
           created_at, updated_at)
         SELECT ${userId}, 'grant-bench-' || n || '@example.com', 'x', 'Grant bench', ${postgres ? 'true' : '1'},
           ${postgres ? 'false' : '0'}, 0, ${now}, ${now}
         FROM ${range}`,
      );
      await deps.db.sequelize.query(
        `${recursive}INSERT INTO oauth_authorizations (id, user_id, partner_id, site_id, client_id, scopes,
           age_threshold, created_at, updated_at, expires_at)
         SELECT 'grant-bench-' || n, ${userId}, '${partner.id}',
           CASE n % ${sites.length} ${sites.map((site, index) => `WHEN ${index} THEN '${site.id}'`).join(' ')} END,
           CASE n % ${sites.length} ${sites.map((site, index) => `WHEN ${index} THEN '${site.client_id}'`).join(' ')} END,
           '["basic_info","AGE_18"]', 18, ${daysAgo}, ${daysAgo}, ${inAYear}
         FROM ${range}`,
      );
    }
    // What autovacuum would have done by the time a table holds a million rows.
    if (postgres) await deps.db.sequelize.query('ANALYZE');
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const { token } = await services.sessions.issue('partner', partner.id, {
      remember: false,
      ip: null,
      userAgent: null,
    });
    const call = async () => {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/v1/partners/stats`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const body = (await response.json()) as { total_verifications: number };
      if (response.status !== 200) throw new Error(`stats answered ${response.status}`);
      return { ms: performance.now() - started, total: body.total_verifications };
    };
    const first = await call();
    if (first.total !== TOTAL + GRANTS)
      throw new Error(`expected ${TOTAL + GRANTS} verifications, stats say ${first.total}`);
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) times.push((await call()).ms);
    times.sort((a, b) => a - b);
    // The statistics alone, in process (no HTTP, no session check): what the database work costs, which a loaded
    // machine's scheduling distorts less than the end-to-end figure.
    const serviceTimes: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) {
      const started = performance.now();
      await services.partnerStats.forPartner(partner.id);
      serviceTimes.push(performance.now() - started);
    }
    serviceTimes.sort((a, b) => a - b);
    return {
      database: deps.db.dialect,
      seed: postgres && BULK_SEED ? 'bulk, roll-ups by GROUP BY' : 'through the triggers',
      verifications: TOTAL,
      verified_at_consent: GRANTS,
      seed_rows_per_second: Math.round(TOTAL / seedSeconds),
      first_call_ms: Math.round(first.ms * 10) / 10,
      stats_p50_ms: Math.round(percentile(times, 50) * 10) / 10,
      stats_p95_ms: Math.round(percentile(times, 95) * 10) / 10,
      stats_max_ms: Math.round((times.at(-1) ?? 0) * 10) / 10,
      service_p50_ms: Math.round(percentile(serviceTimes, 50) * 100) / 100,
      service_p95_ms: Math.round(percentile(serviceTimes, 95) * 100) / 100,
      target_ms: 200,
    };
  } finally {
    server.close();
    await deps.db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await runPartnerStatsBench();
  console.table(Object.fromEntries(Object.entries(result).map(([key, value]) => [key, { value }])));
  console.log(JSON.stringify({ partner_stats: result }));
}
