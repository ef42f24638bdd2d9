/**
 * Backup and restore at scale (issue 12): a SQLite database with N users (default 100,000), each with a
 * verification, a grant and two audit rows, is backed up, verified, and restored into a fresh SQLite file and
 * (when PostgreSQL is reachable) a fresh PostgreSQL database. Prints a table and one JSON line: seconds and the
 * process's peak RSS per phase (bounded memory: the archive is streamed, no table is held whole).
 *
 *   npx tsx cli/bench/backup-bench.ts [users]      BENCH_PG_URL=postgres://… to choose the server
 */
import { randomBytes, randomUUID, createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { createDatabase } from '../../apps/api/src/db/database';
import { migrateUp } from '../../apps/api/src/db/migrator';
import { restoreBackup } from '../../apps/api/src/modules/operators/backup/restore';
import { createBackup, verifyBackup } from '../../apps/api/src/modules/operators/backup/service';

const USERS = Number(process.argv[2] ?? 100_000);
const PG_BASE = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
sampler.unref();

/**
 * Wall seconds, and CPU seconds of this process (user + system): on a machine shared with other work the wall
 * time includes waiting for a core, the CPU time does not (the database server's own CPU is not counted).
 */
async function phase<T>(
  name: string,
  work: () => Promise<T>,
): Promise<{ name: string; seconds: number; cpuSeconds: number; peakRssMb: number; result: T }> {
  if (global.gc) global.gc();
  peak = process.memoryUsage().rss;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(cpu);
  peak = Math.max(peak, process.memoryUsage().rss);
  return {
    name,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    peakRssMb: Math.round(peak / 1e6),
    result,
  };
}

const sqliteDate = (date: Date) => {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)} +00:00`;
};

async function populate(dataDir: string): Promise<void> {
  const db = await createDatabase({ databaseUrl: null, dataDir });
  await migrateUp(db);
  await db.close();
  const handle = new BetterSqlite3(path.join(dataDir, 'attestly.sqlite'));
  const now = sqliteDate(new Date());
  const later = sqliteDate(new Date(Date.now() + 365 * 86400_000));
  const partnerId = randomUUID();
  const siteId = randomUUID();
  handle.exec('BEGIN');
  handle
    .prepare(
      'INSERT INTO partners (id, email, password_hash, company_name, status, plan, login_attempts, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)',
    )
    .run(partnerId, 'bench@partner.example', 'x', 'Bench Partner', 'active', 'scale', now, now);
  handle
    .prepare(
      "INSERT INTO sites (id, partner_id, client_id, client_type, site_name, domain, redirect_uris, allowed_scopes, is_active, created_at, updated_at, sandbox) VALUES (?, ?, 'atc_bench', 'confidential', 'Bench', 'bench.example', '[\"https://bench.example/cb\"]', '[\"AGE_18\"]', 1, ?, ?, 0)",
    )
    .run(siteId, partnerId, now, now);
  const user = handle.prepare(
    'INSERT INTO users (id, email, password_hash, full_name, is_active, is_partner, login_attempts, created_at, updated_at, proven_min_age) VALUES (?, ?, ?, ?, 1, 0, 0, ?, ?, 18)',
  );
  const verification = handle.prepare(
    "INSERT INTO verifications (id, user_id, verification_type, verification_method, status, confidence_score, age_threshold, needs_manual_review, message, result_details, review_notes, created_at, updated_at, sandbox) VALUES (?, ?, 'age', 'photo', 'approved', 0.93, 18, 0, 'Age verified', ?, '[]', ?, ?, 0)",
  );
  const grant = handle.prepare(
    "INSERT INTO oauth_authorizations (id, user_id, partner_id, site_id, client_id, scopes, created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, 'atc_bench', 'openid AGE_18', ?, ?, ?)",
  );
  const audit = handle.prepare(
    "INSERT INTO audit_logs (event_type, severity, user_id, details, created_at, prev_hash, hash) VALUES (?, 'info', ?, ?, ?, ?, ?)",
  );
  let prev = '0'.repeat(64);
  const passwordHash = `scrypt$15$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`;
  for (let index = 0; index < USERS; index += 1) {
    const id = randomUUID();
    user.run(id, `user-${index}@bench.example`, passwordHash, `Bench User ${index}`, now, now);
    verification.run(
      randomUUID(),
      id,
      JSON.stringify({ proves: { min_age: 18 }, estimated_age: 31.2 }),
      now,
      now,
    );
    grant.run(randomUUID(), id, partnerId, siteId, now, now, later);
    for (const event of ['user.registered', 'verification.completed']) {
      const hash = createHash('sha256').update(`${prev}\n${event}${index}`).digest('hex');
      audit.run(event, id, JSON.stringify({ index }), now, prev, hash);
      prev = hash;
    }
  }
  handle.exec('COMMIT');
  handle.close();
}

async function freshPg(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const name = `attestly_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_BASE);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: PG_BASE });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'attestly-backup-bench-'));
  const masterKey = randomBytes(32);
  const source = path.join(work, 'source');
  try {
    const rows = [];
    rows.push(await phase('populate (setup, not timed for the target)', () => populate(source)));
    const archive = path.join(work, 'bench.backup');
    const config = { databaseUrl: null, dataDir: source, masterKey };
    const created = await phase('backup create (SQLite)', () =>
      createBackup(config, { out: archive, secret: { masterKey } }),
    );
    rows.push(created);
    rows.push(await phase('backup verify', () => verifyBackup(archive, { masterKey })));
    rows.push(
      await phase('restore → fresh SQLite', () =>
        restoreBackup(
          { databaseUrl: null, dataDir: path.join(work, 'restored'), masterKey },
          { file: archive, secret: { masterKey } },
        ),
      ),
    );
    const target = await freshPg();
    if (target) {
      try {
        rows.push(
          await phase('restore → fresh PostgreSQL', () =>
            restoreBackup(
              { databaseUrl: target.url, dataDir: work, masterKey },
              { file: archive, secret: { masterKey } },
            ),
          ),
        );
        rows.push(
          await phase('backup create (PostgreSQL)', () =>
            createBackup(
              { databaseUrl: target.url, dataDir: work, masterKey },
              { out: path.join(work, 'pg.backup'), secret: { masterKey } },
            ),
          ),
        );
      } finally {
        await target.drop();
      }
    }
    const total = created.result.files.reduce((sum, file) => sum + file.rows, 0);
    const databaseMb = statSync(path.join(source, 'attestly.sqlite')).size / 1e6;
    const archiveMb = statSync(archive).size / 1e6;
    console.log(
      `\nBackup benchmark: ${USERS} users, ${total} rows, SQLite file ${databaseMb.toFixed(0)} MB, archive ${archiveMb.toFixed(0)} MB\n`,
    );
    console.log(
      `load average ${os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')} on ${os.availableParallelism()} cores`,
    );
    console.log('phase'.padEnd(44), 'seconds'.padStart(8), 'CPU s'.padStart(8), 'peak RSS MB'.padStart(12));
    for (const row of rows)
      console.log(
        row.name.padEnd(44),
        row.seconds.toFixed(1).padStart(8),
        row.cpuSeconds.toFixed(1).padStart(8),
        String(row.peakRssMb).padStart(12),
      );
    console.log(
      JSON.stringify({
        bench: 'backup',
        users: USERS,
        rows: total,
        database_mb: Math.round(databaseMb),
        archive_mb: Math.round(archiveMb),
        load_average: os.loadavg().map((value) => Number(value.toFixed(1))),
        phases: rows.map(({ name, seconds, cpuSeconds, peakRssMb }) => ({
          name,
          seconds: Number(seconds.toFixed(2)),
          cpu_seconds: Number(cpuSeconds.toFixed(2)),
          peak_rss_mb: peakRssMb,
        })),
      }),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
