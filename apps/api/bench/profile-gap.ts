/**
 * Reads the CPU profiles that the OIDC bench leaves in a directory (`OIDC_BENCH_PROFILE_DIR`, or the one
 * `npm run bench` profiles into when a target is missed), with the bench's `phases-<pid>.json`, and breaks each
 * measured phase (flow, userinfo, introspection, profile, healthz) down into CPU time per operation: by group (our
 * source files through the build's source map, each package, Node internals, GC), by function, and by the coarse
 * kinds of work `explainGap` prints: where the gap between our server and the bare one is.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
export interface PhaseFile {
  name: string;
  pid: number;
  phases: { name: string; start_us: number; end_us: number; operations: number }[];
}

const maps = new Map<string, SourceMap | null>();
function sourceMap(url: string): SourceMap | null {
  if (!maps.has(url)) {
    let map: SourceMap | null = null;
    try {
      const file = fileURLToPath(url);
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return maps.get(url) ?? null;
}

/** A short place for a frame: our source file (through the source map), a package, or a Node internal. */
function place(frame: CallFrame): { group: string; where: string } {
  const { url } = frame;
  if (!url) return { group: frame.functionName || '(native)', where: '' };
  if (url.startsWith('node:')) return { group: 'node internals', where: url.slice(5) };
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (modules) return { group: modules[1] as string, where: `${modules[1]}/${modules[2]}` };
  const map = url.startsWith('file:') ? sourceMap(url) : null;
  if (map) {
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as {
      originalSource?: string;
      originalLine?: number;
    };
    // Sources are relative to the bundle (`../../src/db/sqlite-driver.ts`, `../../../packages/…`).
    const source = (entry.originalSource ?? '').replace(/^(\.\.\/)+/, '');
    const sourceModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
    if (sourceModules) return { group: sourceModules[1] as string, where: source };
    if (source) return { group: `ours: ${source}`, where: `${source}:${(entry.originalLine ?? 0) + 1}` };
  }
  return { group: path.basename(url), where: url };
}

/** CPU time spent inside `spans` (monotonic µs), by group and by function. */
export function summarise(profile: CpuProfile, spans: { start_us: number; end_us: number }[]) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  // Each sample counts as one sampling interval (the median gap between samples): on a busy machine a gap also
  // holds the time this process waited for a core, which would otherwise be charged to whatever ran next.
  const gaps = profile.timeDeltas.filter((delta) => delta > 0).sort((a, b) => a - b);
  const next = gaps[Math.floor(gaps.length / 2)] ?? 0;
  const inside = (time: number) => spans.some((span) => time >= span.start_us && time < span.end_us);
  let time = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i += 1) {
    time += profile.timeDeltas[i] ?? 0;
    if (!inside(time)) continue;
    const node = byId.get(profile.samples[i] as number);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const { group, where } = place(node.callFrame);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${where}`.trim();
    groups.set(group, (groups.get(group) ?? 0) + next);
    functions.set(name, (functions.get(name) ?? 0) + next);
    total += next;
  }
  return { groups, functions, total };
}

export interface ProfiledSide extends PhaseFile {
  profile: CpuProfile;
}

/** Every side (server) profiled in `dir`: its phases and its CPU profile. */
export function readProfiledSides(dir: string): ProfiledSide[] {
  const files = readdirSync(dir);
  return files
    .filter((file) => /^phases-\d+\.json$/.test(file))
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as PhaseFile)
    .map((phases) => {
      const file = files.find((name) => name.includes(`.${phases.pid}.`) && name.endsWith('.cpuprofile'));
      if (!file) throw new Error(`no profile for ${phases.name} (pid ${phases.pid}) in ${dir}`);
      return { ...phases, profile: JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile };
    });
}

export type PhaseSummary = ReturnType<typeof summarise> & { side: string; operations: number };

/** One side's CPU time in one phase (all its slices), or null when it did not run that phase. */
export function summarisePhase(side: ProfiledSide, phaseName: string): PhaseSummary | null {
  const slices = side.phases.filter((phase) => phase.name === phaseName);
  const operations = slices.reduce((sum, slice) => sum + slice.operations, 0);
  if (operations === 0) return null;
  return { side: side.name, operations, ...summarise(side.profile, slices) };
}

/**
 * The kind of work a group is, for the printed explanation: what the bare servers do not do (a database, the
 * audit trail, the access log, metrics, our middleware) apart from what both do (HTTP, Koa, the provider).
 */
export function kindOfWork(group: string): string {
  if (
    /^ours: src\/(db|lib\/clock)\b/.test(group) ||
    /^(better-sqlite3|pg|pg-protocol|pg-pool|sequelize)$/.test(group)
  )
    return 'database: statements, drivers, row conversion';
  if (group.startsWith('ours: src/oidc/')) return 'our provider glue: adapter, account claims, request rows';
  if (group.startsWith('ours: src/modules/shared/audit/')) return 'audit trail';
  if (
    group === 'ours: src/middleware/request-context.ts' ||
    /^(pino|sonic-boom|pino-std-serializers)$/.test(group)
  )
    return 'request id and access log';
  if (group === 'ours: src/middleware/metrics.ts' || group === 'prom-client') return 'request metrics';
  if (group.startsWith('ours: ')) return 'our routes, sessions and other middleware';
  if (group === 'oidc-provider' || group === 'jose') return 'oidc-provider and jose';
  if (group === '(garbage collector)') return 'garbage collection';
  if (
    /^(koa|koa-compose|delegates|@koa\/router|@koa\/bodyparser|@koa\/cors|on-finished|ee-first|cookies|keygrip|type-is|mime-types|negotiator|accepts|content-disposition|debug|http-errors|statuses|depd|vary|fresh|encodeurl|escape-html|only|destroy|path-to-regexp|koa-convert|co-body|raw-body|inflation|qs)$/.test(
      group,
    )
  )
    return 'Koa, its router and helpers';
  return 'Node: HTTP, sockets, promises, async hooks, crypto';
}

/** CPU µs per operation by kind of work (kindOfWork). */
function byKind(summary: PhaseSummary): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const [group, us] of summary.groups) {
    const kind = kindOfWork(group);
    kinds.set(kind, (kinds.get(kind) ?? 0) + us / summary.operations);
  }
  return kinds;
}

const thousands = (us: number) => Math.round(us).toLocaleString('en-GB');
const signed = (us: number) => `${us >= 0 ? '+' : '−'}${thousands(Math.abs(us))}`.padStart(7);

/**
 * Lines explaining the gap in one phase: ours against a bare server, in main-thread CPU µs per operation, by kind
 * of work, largest difference first. `title` names the comparison (e.g. "flows 0.75, target ≥ 0.9").
 */
export function explainGap(ours: PhaseSummary, bare: PhaseSummary, title: string): string[] {
  const oursKinds = byKind(ours);
  const bareKinds = byKind(bare);
  const oursTotal = ours.total / ours.operations;
  const bareTotal = bare.total / bare.operations;
  const rows = [...new Set([...oursKinds.keys(), ...bareKinds.keys()])]
    .map((kind) => ({ kind, ours: oursKinds.get(kind) ?? 0, bare: bareKinds.get(kind) ?? 0 }))
    .map((row) => ({ ...row, gap: row.ours - row.bare }))
    .filter((row) => Math.abs(row.gap) >= 1)
    .sort((a, b) => b.gap - a.gap);
  return [
    `${title}: ${thousands(oursTotal)} µs of main-thread CPU per operation against ${bare.side}'s ` +
      `${thousands(bareTotal)} (${signed(oursTotal - bareTotal).trim()}), by kind of work (ours · ${bare.side}):`,
    ...rows.map(
      (row) => `  ${signed(row.gap)}  ${row.kind} (${thousands(row.ours)} · ${thousands(row.bare)})`,
    ),
  ];
}
