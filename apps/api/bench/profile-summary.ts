/**
 * Reads the CPU profiles that `OIDC_BENCH_PROFILE_DIR=<dir> npx tsx apps/api/bench/oidc-bench.ts` leaves in <dir>
 * (with the bench's `phases-<pid>.json`), and prints, per measured phase (flow, userinfo, introspection, profile,
 * healthz), each side's CPU time per operation by group (our source files through the build's source map, each
 * package, Node internals, GC) and by function, ours against bare: where the gap between the two servers is.
 *
 * `npx tsx apps/api/bench/profile-summary.ts <dir> [top]`
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
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface PhaseFile {
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

function summarise(profile: CpuProfile, start: number, end: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  // Each sample counts as one sampling interval (the median gap between samples): on a busy machine a gap also
  // holds the time this process waited for a core, which would otherwise be charged to whatever ran next.
  const gaps = profile.timeDeltas.filter((delta) => delta > 0).sort((a, b) => a - b);
  const next = gaps[Math.floor(gaps.length / 2)] ?? 0;
  let time = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i += 1) {
    time += profile.timeDeltas[i] ?? 0;
    if (time < start || time >= end) continue;
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

const dir = process.argv[2];
const top = Number(process.argv[3] ?? 25);
if (!dir) {
  console.error('usage: profile-summary.ts <OIDC_BENCH_PROFILE_DIR> [top]');
  process.exit(2);
}
const sides = readdirSync(dir)
  .filter((file) => /^phases-\d+\.json$/.test(file))
  .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as PhaseFile)
  .map((phases) => {
    const file = readdirSync(dir).find(
      (name) => name.includes(`.${phases.pid}.`) && name.endsWith('.cpuprofile'),
    );
    if (!file) throw new Error(`no profile for ${phases.name} (pid ${phases.pid}) in ${dir}`);
    return { ...phases, profile: JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile };
  });

const fmt = (us: number) => us.toFixed(1).padStart(8);
for (const phaseName of ['flow', 'userinfo', 'introspection', 'profile', 'healthz']) {
  const measured = sides.flatMap((side) => {
    const phase = side.phases.find((candidate) => candidate.name === phaseName);
    if (!phase || phase.operations === 0) return [];
    return [
      {
        side: side.name,
        operations: phase.operations,
        ...summarise(side.profile, phase.start_us, phase.end_us),
      },
    ];
  });
  if (measured.length === 0) continue;
  console.log(`\n=== ${phaseName}: CPU µs per operation (profiled) ===`);
  for (const side of measured)
    console.log(
      `${side.side.padEnd(6)} ${fmt(side.total / side.operations)} µs total over ${side.operations} operations`,
    );
  for (const key of ['groups', 'functions'] as const) {
    const names = new Set(measured.flatMap((side) => [...side[key].keys()]));
    const rows = [...names]
      .map((name) => ({ name, per: measured.map((side) => (side[key].get(name) ?? 0) / side.operations) }))
      .sort((a, b) => Math.max(...b.per) - Math.max(...a.per))
      .slice(0, top);
    console.log(
      `-- by ${key === 'groups' ? 'group' : 'function'}: ${measured.map((side) => side.side).join(' / ')}`,
    );
    for (const row of rows) console.log(`${row.per.map(fmt).join(' ')}  ${row.name}`);
  }
}
