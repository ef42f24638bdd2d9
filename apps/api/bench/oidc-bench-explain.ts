import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measureAll } from './oidc-bench-measure';
import { explainGap, readProfiledSides, summarisePhase } from './profile-gap';

/**
 * Where the gap is, for each target this run missed: the same load once more with every server under V8's CPU
 * profiler (unless the measured run was profiled already), then main-thread CPU per operation by kind of work,
 * ours against bare (profile-gap.ts) and, on PostgreSQL, against the floor (bare-provider-pg.ts). Profiling slows
 * every side alike; the ratios above come from the run without it.
 */
export async function explainMissedTargets(
  server: string | null,
  figures: Record<string, number>,
  keptProfiles: string | undefined,
): Promise<void> {
  const missed = [
    {
      met: figures.flows_target_met,
      phase: 'flow',
      databaseUs: figures.ours_flow_db_cpu_ms === undefined ? undefined : figures.ours_flow_db_cpu_ms * 1000,
      versus: 'bare',
      title: `flows ${figures.flows_ratio}× bare (target ≥ ${figures.flows_target})`,
    },
    {
      met: figures.userinfo_target_met,
      phase: 'userinfo',
      databaseUs: figures.ours_userinfo_db_cpu_us,
      versus: 'bare',
      title: `userinfo ${figures.userinfo_ratio}× bare (target ≥ ${figures.userinfo_target})`,
    },
    {
      met: figures.introspect_target_met,
      phase: 'introspection',
      databaseUs: figures.ours_introspect_db_cpu_us,
      versus: 'bare',
      title: `introspection ${figures.introspect_ratio}× bare (target ≥ ${figures.introspect_target})`,
    },
    {
      met: figures.profile_target_met,
      phase: 'profile',
      databaseUs: figures.ours_profile_db_cpu_us,
      versus: 'bare-koa',
      title: `GET /users/profile ${figures.profile_ratio}× bare Koa (target ≥ ${figures.profile_target})`,
    },
  ].filter((target) => target.met !== 1);
  if (figures.p99_target_met !== 1) {
    console.log(
      `p99 ${figures.ours_userinfo_p99_ms}/${figures.ours_introspect_p99_ms} ms (target < 20), bare ` +
        `${figures.bare_userinfo_p99_ms}/${figures.bare_introspect_p99_ms} ms in the same run: with 16 connections ` +
        'a request waits behind those ahead of it for one core, so p99 follows CPU time per request (below).',
    );
  }
  if (missed.length === 0) return;
  const dir = keptProfiles ?? mkdtempSync(path.join(tmpdir(), 'attestly-oidc-profile-'));
  try {
    if (!keptProfiles) {
      console.log(
        `oidc-bench: ${missed.length} target(s) missed; measuring again under the CPU profiler to explain`,
      );
      await measureAll(server, dir, undefined);
    }
    const sides = readProfiledSides(dir);
    const phase = (side: string, name: string) => {
      const found = sides.find((candidate) => candidate.name === side);
      return found ? summarisePhase(found, name) : null;
    };
    const lines = [`Where the time goes (${server ? 'PostgreSQL' : 'SQLite'}, profiled run):`];
    for (const target of missed) {
      const ours = phase('ours', target.phase);
      const versus = phase(target.versus, target.phase);
      if (ours && versus) lines.push(...explainGap(ours, versus, target.title));
      // On PostgreSQL, also against the bare provider on its PostgreSQL adapter: what ours does beyond the statements.
      const floor = target.versus === 'bare' ? phase('floor', target.phase) : null;
      if (ours && floor)
        lines.push(...explainGap(ours, floor, `the same against the floor (bare on PostgreSQL)`));
      // On PostgreSQL the database server's own work is outside our process, on the same cores (measured run).
      if (target.databaseUs !== undefined) {
        lines.push(
          `  and in PostgreSQL's processes: ${Math.round(target.databaseUs).toLocaleString('en-GB')} µs of CPU per operation`,
        );
      }
    }
    // The floor under every route: our /healthz does no work, so its cost is the shared middleware stack alone.
    const healthz = phase('ours', 'healthz');
    const bareKoa = phase('bare-koa', 'healthz');
    if (figures.profile_target_met !== 1 && healthz && bareKoa) {
      lines.push(
        ...explainGap(
          healthz,
          bareKoa,
          `the floor: our GET /healthz (no work) ${figures.healthz_ratio}× bare Koa`,
        ),
      );
    }
    console.log(lines.join('\n'));
  } finally {
    if (!keptProfiles) rmSync(dir, { recursive: true, force: true });
  }
}
