/**
 * OpenID Connect benchmark (issue 4 "Performance"): complete authorization-code + PKCE flows per second with 16
 * concurrent clients (each keeps its provider session, and consent is remembered, so a flow is authorize →
 * redirect with a code → token exchange with the verifier), then userinfo and introspection requests per second.
 * The same harness runs against our server (its own process, fresh SQLite database) and against a bare
 * oidc-provider with its in-memory adapter and development interactions (bare-provider.ts), all started at once
 * and loaded in turns of one second (measureAll), and prints the ratios. Targets on SQLite (issue 15): full flows ≥ 0.9×
 * bare, userinfo and introspection ≥ 0.6× bare, p99 < 20 ms; on PostgreSQL (issue 26): flows ≥ 0.6×, userinfo and
 * introspection ≥ 0.7×. It also loads our `GET /api/v1/users/profile` and a bare Koa JSON route (bare-koa.ts) the same
 * way: target ≥ 0.3× (PostgreSQL ≥ 0.2×). Ours also reports its database round trips per operation (`*_round_trips`,
 * from /metrics).
 * OIDC_BENCH_DATABASE_URL=postgres://… runs our server on PostgreSQL (a throwaway database is created and dropped),
 * and beside it the bare provider on a PostgreSQL adapter that does nothing but its statements (bare-provider-pg.ts):
 * `floor_*`, the most any provider keeping its state there reaches on this machine;
 * `npm run bench` runs SQLite and then PostgreSQL (runOidcBench). When a target is missed, the same load runs once
 * more with each server under V8's CPU profiler, and the bench prints where the gap is: main-thread CPU per
 * operation by kind of work, ours against bare (profile-gap.ts; OIDC_BENCH_EXPLAIN=0 skips it).
 * OIDC_BENCH_PROFILE_DIR=<dir> profiles the measured run itself and keeps the profiles and the phases each server
 * served; `npx tsx apps/api/bench/profile-summary.ts <dir>` breaks them down by function.
 *
 * Run alone: `npx tsx apps/api/bench/oidc-bench.ts`; `npm run bench` imports `runOidcBench`.
 * The parts: the servers (oidc-bench-servers.ts), a flow and a load on one of them (oidc-bench-sides.ts), the
 * interleaved measurement (oidc-bench-measure.ts), and the profiled explanation of a missed target
 * (oidc-bench-explain.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { explainMissedTargets } from './oidc-bench-explain';
import { measureAll } from './oidc-bench-measure';

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
  // OIDC_BENCH_BASELINE_SERVER=/path/to/an/older/dist/server.js also measures that build in the same run (A/B).
  const keptProfiles = process.env.OIDC_BENCH_PROFILE_DIR;
  const measured = await measureAll(server, keptProfiles, process.env.OIDC_BENCH_BASELINE_SERVER);
  const ours = measured.ours as Record<string, number>;
  const bare = measured.bare as Record<string, number>;
  const bareKoa = measured['bare-koa'] as Record<string, number>;
  const base = measured.base;
  const of = (figures: Record<string, number>, key: string) => figures[key] ?? 0;
  // Issue 15's targets on SQLite; on PostgreSQL, issue 26 item 6's (each of its statements a round trip to another
  // process on the same cores).
  const target = server
    ? { flows: 0.6, userinfo: 0.7, introspect: 0.7, profile: 0.2 }
    : { flows: 0.9, userinfo: 0.6, introspect: 0.6, profile: 0.3 };
  const figures: Record<string, number> = {
    ...Object.fromEntries(Object.entries(ours).map(([key, value]) => [`ours_${key}`, value])),
    ...Object.fromEntries(Object.entries(bare).map(([key, value]) => [`bare_${key}`, value])),
    flows_ratio: ratio(of(ours, 'flows_per_s'), of(bare, 'flows_per_s')),
    userinfo_ratio: ratio(of(ours, 'userinfo_rps'), of(bare, 'userinfo_rps')),
    introspect_ratio: ratio(of(ours, 'introspect_rps'), of(bare, 'introspect_rps')),
    bare_koa_profile_rps: of(bareKoa, 'profile_rps'),
    bare_koa_profile_p99_ms: of(bareKoa, 'profile_p99_ms'),
    bare_koa_profile_cpu_us: of(bareKoa, 'profile_cpu_us'),
    bare_koa_healthz_rps: of(bareKoa, 'healthz_rps'),
    profile_ratio: ratio(of(ours, 'profile_rps'), of(bareKoa, 'profile_rps')),
    // Ours doing nothing (/healthz) against bare Koa: how much of the profile gap is the shared middleware stack.
    healthz_ratio: ratio(of(ours, 'healthz_rps'), of(bareKoa, 'healthz_rps')),
    flows_target_met: of(ours, 'flows_per_s') >= target.flows * of(bare, 'flows_per_s') ? 1 : 0,
    userinfo_target_met: of(ours, 'userinfo_rps') >= target.userinfo * of(bare, 'userinfo_rps') ? 1 : 0,
    introspect_target_met:
      of(ours, 'introspect_rps') >= target.introspect * of(bare, 'introspect_rps') ? 1 : 0,
    p99_target_met: of(ours, 'userinfo_p99_ms') < 20 && of(ours, 'introspect_p99_ms') < 20 ? 1 : 0,
    profile_target_met: of(ours, 'profile_rps') >= target.profile * of(bareKoa, 'profile_rps') ? 1 : 0,
    database_postgres: server ? 1 : 0,
    flows_target: target.flows,
    userinfo_target: target.userinfo,
    introspect_target: target.introspect,
    profile_target: target.profile,
  };
  /** Another provider side's figures, prefixed, with its ratios to bare. */
  const againstBare = (prefix: string, side: Record<string, number>) => ({
    ...Object.fromEntries(Object.entries(side).map(([key, value]) => [`${prefix}_${key}`, value])),
    [`${prefix}_flows_ratio`]: ratio(of(side, 'flows_per_s'), of(bare, 'flows_per_s')),
    [`${prefix}_userinfo_ratio`]: ratio(of(side, 'userinfo_rps'), of(bare, 'userinfo_rps')),
    [`${prefix}_introspect_ratio`]: ratio(of(side, 'introspect_rps'), of(bare, 'introspect_rps')),
  });
  // The bare provider on a PostgreSQL adapter that does nothing but its statements (bare-provider-pg.ts): the most any
  // provider keeping its state in PostgreSQL reaches on this machine, against each target.
  const floor = measured.floor as Record<string, number> | undefined;
  if (floor) Object.assign(figures, againstBare('floor', floor));
  if (base) Object.assign(figures, againstBare('base', base));
  const database = server ? 'PostgreSQL' : 'SQLite';
  console.log(
    `OIDC ours/bare (${database}): flows ${figures.flows_ratio} ` +
      `(target ≥ ${target.flows}), userinfo ${figures.userinfo_ratio} and introspection ${figures.introspect_ratio} ` +
      `(targets ≥ ${target.userinfo}), p99 ${ours.userinfo_p99_ms}/${ours.introspect_p99_ms} ms (target < 20; bare ` +
      `${bare.userinfo_p99_ms}/${bare.introspect_p99_ms} ms); GET /users/profile vs bare Koa ` +
      `${figures.profile_ratio} (target ≥ ${target.profile}; /healthz ${figures.healthz_ratio}); database round ` +
      `trips per flow ${ours.flow_round_trips}, userinfo ${ours.userinfo_round_trips}, introspection ` +
      `${ours.introspect_round_trips}, profile ${ours.profile_round_trips}`,
  );
  if (floor)
    console.log(
      `OIDC floor/bare (the bare provider on a PostgreSQL adapter, nothing else): flows ${figures.floor_flows_ratio} ` +
        `(${floor.flow_round_trips} round trips), userinfo ${figures.floor_userinfo_ratio} ` +
        `(${floor.userinfo_round_trips}), introspection ${figures.floor_introspect_ratio} (${floor.introspect_round_trips})`,
    );
  if (process.env.OIDC_BENCH_EXPLAIN !== '0') await explainMissedTargets(server, figures, keptProfiles);
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
