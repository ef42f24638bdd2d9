/**
 * The floor under issue 26's `/users/profile` target on PostgreSQL (≥ 0.2× bare Koa): how fast any server can answer
 * that route when it reads its user row from PostgreSQL once per request, with none of our stack. Two processes,
 * loaded in one-second turns with the OIDC bench's autocannon settings (16 connections): bare-koa.ts, and the same
 * Koa route reading the row with one prepared statement through a node-postgres pool (this file with `--serve`).
 * Prints one JSON line: requests per second, each server's CPU µs per request (and PostgreSQL's), and the ratio — the best that a
 * design keeping one round trip per request could reach on this machine, against the bench's `profile_ratio`.
 *
 *   PROFILE_FLOOR_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx apps/api/bench/profile-floor.ts
 *
 * A throwaway database is created beside the one named and dropped at the end.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import pg from 'pg';
import { benchDatabase, cpuMs, postgresCpuMs, startProcess } from './oidc-bench-servers';
import { CLIENTS, PROFILE_ROUTE as ROUTE, cannon } from './oidc-bench-sides';

const here = path.dirname(fileURLToPath(import.meta.url));
const USER_ID = '6f1d0c7e-2b1a-4c55-9a63-0f7b8f5d2a10';

/** The Koa route of bare-koa.ts, its body read from PostgreSQL with one prepared statement per request. */
async function serve(database: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: database, max: 4 });
  await pool.query(`CREATE TABLE IF NOT EXISTS floor_users (id uuid PRIMARY KEY, email text NOT NULL, full_name text,
    phone text, country text, state text, city text, email_verified boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now())`);
  await pool.query(
    `INSERT INTO floor_users (id, email, full_name) VALUES ($1, 'bench-user@example.com', 'Bench User')
     ON CONFLICT (id) DO NOTHING`,
    [USER_ID],
  );
  const read = { name: 'floor_profile', text: 'SELECT * FROM floor_users WHERE id = $1', values: [USER_ID] };
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.path === ROUTE && ctx.get('Authorization').startsWith('Bearer ')) {
      ctx.body = (await pool.query(read)).rows[0];
      return;
    }
    ctx.status = 401;
    ctx.body = { detail: 'unauthenticated' };
  });
  const server = app.listen(0, '127.0.0.1', () => {
    console.log(
      JSON.stringify({ port: (server.address() as AddressInfo).port, msg: 'koa pg floor listening' }),
    );
  });
  process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
}

/** A server process (bare-koa.ts, or this file serving) once it says it listens. */
const start = (args: string[]) =>
  startProcess(
    [process.execPath, '--import', 'tsx', ...args],
    {},
    /"port":(\d+)[^\n]*(bare koa|koa pg floor) listening/,
  );

const load = async (port: number, seconds: number) =>
  (
    await cannon({
      url: `http://127.0.0.1:${port}${ROUTE}`,
      connections: CLIENTS,
      duration: seconds,
      headers: { authorization: 'Bearer floor' },
    })
  ).requests.total;

async function measure(server: string): Promise<void> {
  const database = (await benchDatabase(server))!;
  const sides = {
    bare_koa: await start([path.join(here, 'bare-koa.ts')]),
    koa_pg: await start([fileURLToPath(import.meta.url), '--serve', database.url]),
  };
  const tally = {
    bare_koa: { requests: 0, cpuMs: 0, databaseCpuMs: 0 },
    koa_pg: { requests: 0, cpuMs: 0, databaseCpuMs: 0 },
  };
  try {
    for (const side of Object.values(sides)) await load(side.port, 1); // warm-up
    for (let turn = 0; turn < 8; turn++)
      for (const [key, side] of Object.entries(sides) as [keyof typeof sides, (typeof sides)['koa_pg']][]) {
        const [cpu, databaseCpu] = [cpuMs(side.child.pid!), postgresCpuMs()];
        tally[key].requests += await load(side.port, 1);
        tally[key].cpuMs += cpuMs(side.child.pid!) - cpu;
        tally[key].databaseCpuMs += postgresCpuMs() - databaseCpu;
      }
  } finally {
    for (const side of Object.values(sides)) side.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await database.drop();
  }
  const round = (v: number, places = 1) => Math.round(v * 10 ** places) / 10 ** places;
  console.log(
    JSON.stringify({
      bare_koa_profile_rps: round(tally.bare_koa.requests / 8),
      koa_pg_profile_rps: round(tally.koa_pg.requests / 8),
      bare_koa_cpu_us: round((1000 * tally.bare_koa.cpuMs) / tally.bare_koa.requests),
      koa_pg_cpu_us: round((1000 * tally.koa_pg.cpuMs) / tally.koa_pg.requests),
      koa_pg_db_cpu_us: round((1000 * tally.koa_pg.databaseCpuMs) / tally.koa_pg.requests),
      floor_ratio: round(tally.koa_pg.requests / tally.bare_koa.requests, 2),
    }),
  );
}

if (process.argv[2] === '--serve') await serve(process.argv[3]!);
else await measure(process.env.PROFILE_FLOOR_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
