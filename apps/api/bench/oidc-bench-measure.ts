/**
 * The OIDC bench's measurement (oidc-bench.ts runs it): every server started and set up, then each phase loaded in
 * one-second slices taken in turn, and each server's figures from what its slices served.
 */
import {
  CLIENTS,
  cannon,
  flow,
  type LoadName,
  type LoadRequest,
  Phases,
  bareKoaSide,
  prepareLoads,
  providerSide,
  type Side,
  type Tally,
  tally,
} from './oidc-bench-sides';
import { commands, cpuMs, postgresCpuMs, startBare, startOurs } from './oidc-bench-servers';

/** Whole seconds each server is measured per phase, in one-second slices taken in turn with the others (interleave). */
const FLOW_SECONDS = Number(process.env.OIDC_BENCH_FLOW_SECONDS ?? 8);
const LOAD_SECONDS = Number(process.env.OIDC_BENCH_LOAD_SECONDS ?? 5);

/** What one slice served. */
interface Served {
  operations: number;
  errors?: number;
  non2xx?: number;
  latencies?: number[];
}

/**
 * Runs one slice of `phase` on `side` and, unless it is a warm-up, adds what it served to the phase's tally: its
 * duration, the server's CPU time over it (and PostgreSQL's, for a side on PostgreSQL), and its span for profiling.
 */
async function slice(
  side: Side,
  phase: string,
  counted: boolean,
  work: () => Promise<Served>,
): Promise<void> {
  // Outside the timed span and before the CPU readings: what autovacuum would have analysed by now.
  await side.analyze?.();
  // Read outside the timed span: the /metrics request is not part of the slice's work or CPU.
  const tripsBefore = counted ? await roundTripsOf(side) : Number.NaN;
  const cpu = cpuMs(side.pid);
  const databaseCpu = side.postgres ? postgresCpuMs() : 0;
  const startUs = Phases.now();
  const started = performance.now();
  const served = await work();
  if (!counted) return;
  const counts = tally(side, phase);
  counts.operations += served.operations;
  counts.errors += served.errors ?? 0;
  counts.non2xx += served.non2xx ?? 0;
  counts.seconds += (performance.now() - started) / 1000;
  counts.cpuMs += cpuMs(side.pid) - cpu;
  if (side.postgres) counts.databaseCpuMs += postgresCpuMs() - databaseCpu;
  counts.roundTrips += (await roundTripsOf(side)) - tripsBefore;
  for (const ms of served.latencies ?? []) counts.latencies.push(ms);
  side.phases.add(phase, startUs, served.operations);
}

/** The side's database round trips so far; NaN for a side that does not count them. */
async function roundTripsOf(side: Side): Promise<number> {
  if (!side.roundTrips) return Number.NaN;
  try {
    return await side.roundTrips();
  } catch {
    side.roundTrips = null; // an older build without the counter
    return Number.NaN;
  }
}

/** Every client runs flows until the slice ends (a flow under way finishes). */
async function flowSlice(side: Side, seconds: number, counted: boolean): Promise<void> {
  const { target, endpoints, jars } = side.flow as NonNullable<Side['flow']>;
  await slice(side, 'flow', counted, async () => {
    const deadline = performance.now() + seconds * 1000;
    let operations = 0;
    let errors = 0;
    await Promise.all(
      jars.map(async (jar) => {
        while (performance.now() < deadline) {
          try {
            await flow(target, endpoints, jar);
            operations += 1;
          } catch {
            errors += 1;
          }
        }
      }),
    );
    return { operations, errors };
  });
}

/** One slice of a request load. */
async function loadSlice(side: Side, load: LoadName, seconds: number, counted: boolean): Promise<void> {
  const request = side.loads[load] as LoadRequest;
  await slice(side, load, counted, async () => {
    const latencies: number[] = [];
    const result = await cannon({ ...request, connections: CLIENTS, duration: seconds }, (ms) =>
      latencies.push(ms),
    );
    return { operations: result.requests.total, non2xx: result.non2xx, latencies };
  });
}

/**
 * Runs `slice` on each side in turn, `rounds` times after one uncounted warm-up round, the order rotating each
 * round: every side meets the same moments of a machine whose speed drifts (other tenants, CPU frequency), and the
 * load generator (this process) is warm for all of them.
 */
async function interleave(
  sides: Side[],
  rounds: number,
  slice: (side: Side, counted: boolean) => Promise<void>,
): Promise<void> {
  for (let round = 0; round <= rounds; round += 1) {
    for (let i = 0; i < sides.length; i += 1) {
      await slice(sides[(i + round) % sides.length] as Side, round > 0);
    }
  }
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
};

/**
 * Database round trips per operation (`<prefix>_round_trips`; on SQLite calls into it), from the server's own
 * counter: deterministic where the rates are not. Absent for a server that does not count (bare, older builds).
 */
function roundTripFigure(prefix: string, counts: Tally): Record<string, number> {
  if (!Number.isFinite(counts.roundTrips) || counts.operations === 0) return {};
  return { [`${prefix}_round_trips`]: Math.round((counts.roundTrips / counts.operations) * 100) / 100 };
}

/** A side's figures, named as the bench has always reported them. */
function figuresOf(side: Side) {
  const per = (phase: string) => tally(side, phase);
  const rate = (counts: Tally) => (counts.seconds > 0 ? counts.operations / counts.seconds : 0);
  const perOperation = (ms: number, counts: Tally, unit: number) =>
    counts.operations > 0 && Number.isFinite(ms)
      ? Math.round(((ms * unit) / counts.operations) * 10) / 10
      : 0;
  const cpuPer = (counts: Tally, unit: number) => perOperation(counts.cpuMs, counts, unit);
  const figures: Record<string, number> = {};
  if (side.flow) {
    const flows = per('flow');
    Object.assign(figures, {
      // The server's CPU time per flow (ms) and per request (µs): steadier than rates when the machine is busy.
      flow_cpu_ms: cpuPer(flows, 1),
      flows_per_s: Math.round(rate(flows) * 10) / 10,
      flow_errors: flows.errors,
      ...(side.postgres ? { flow_db_cpu_ms: perOperation(flows.databaseCpuMs, flows, 1) } : {}),
      ...roundTripFigure('flow', flows),
    });
  }
  const prefixes: Record<LoadName, string> = {
    userinfo: 'userinfo',
    introspection: 'introspect',
    profile: 'profile',
    healthz: 'healthz',
  };
  for (const load of Object.keys(side.loads) as LoadName[]) {
    const counts = per(load);
    const prefix = prefixes[load];
    Object.assign(figures, {
      [`${prefix}_rps`]: Math.round(rate(counts)),
      [`${prefix}_p99_ms`]: Math.round(percentile(counts.latencies, 99) * 10) / 10,
      [`${prefix}_non2xx`]: counts.non2xx,
      [`${prefix}_cpu_us`]: cpuPer(counts, 1000),
      ...(side.postgres ? { [`${prefix}_db_cpu_us`]: perOperation(counts.databaseCpuMs, counts, 1000) } : {}),
      ...roundTripFigure(prefix, counts),
    });
  }
  return figures;
}

/**
 * The servers, all started and each set up before anything is measured: ours (on SQLite when `server` is null,
 * else on a throwaway PostgreSQL database), an older build of ours when given, the bare provider (on PostgreSQL also
 * the bare provider on a PostgreSQL adapter, `floor`) and the bare Koa route. Then each phase in slices,
 * interleaved (`interleave`): only one server is under load at any moment, the others idle, so they never compete
 * for the cores. With `profileDir` each runs under V8's CPU profiler and leaves
 * its profile and the slices it served there.
 */
export async function measureAll(
  server: string | null,
  profileDir: string | undefined,
  baseline: string | undefined,
) {
  const command = await commands(profileDir);
  const sides: Side[] = [];
  try {
    sides.push(await providerSide(await startOurs(command.ours, server), profileDir, server !== null));
    if (baseline) {
      const base = [command.ours[0] as string, ...command.ours.slice(1, -1), baseline];
      sides.push(await providerSide(await startOurs(base, server, 'base'), profileDir, server !== null));
    }
    sides.push(await providerSide(await startBare(command.bare), profileDir));
    // On PostgreSQL, the same bare provider keeping its state there: the floor under that database's targets.
    if (server) sides.push(await providerSide(await startBare(command.bare, server), profileDir, true));
    sides.push(await bareKoaSide(command.bareKoa, profileDir));
    const serving = (load: LoadName) => sides.filter((side) => side.loads[load]);
    await interleave(
      sides.filter((side) => side.flow),
      FLOW_SECONDS,
      (side, counted) => flowSlice(side, 1, counted),
    );
    for (const side of sides) if (side.flow) await prepareLoads(side);
    for (const load of ['userinfo', 'introspection', 'profile', 'healthz'] as const) {
      await interleave(serving(load), LOAD_SECONDS, (side, counted) => loadSlice(side, load, 1, counted));
    }
    return Object.fromEntries(sides.map((side) => [side.name, figuresOf(side)]));
  } finally {
    for (const side of sides) {
      side.phases.write();
      await side.stop();
    }
  }
}
