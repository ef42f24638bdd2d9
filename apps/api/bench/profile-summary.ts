/**
 * Prints, per phase the OIDC bench measured with `OIDC_BENCH_PROFILE_DIR=<dir> npx tsx apps/api/bench/oidc-bench.ts`,
 * each side's CPU time per operation by group and by function, ours against bare (profile-gap.ts reads them): the
 * detail behind the gap that `npm run bench` explains by kind of work.
 *
 * `npx tsx apps/api/bench/profile-summary.ts <dir> [top]`
 */
import { readProfiledSides, summarisePhase } from './profile-gap';

const dir = process.argv[2];
const top = Number(process.argv[3] ?? 25);
if (!dir) {
  console.error('usage: profile-summary.ts <OIDC_BENCH_PROFILE_DIR> [top]');
  process.exit(2);
}
const sides = readProfiledSides(dir);
const fmt = (us: number) => us.toFixed(1).padStart(8);
for (const phaseName of ['flow', 'userinfo', 'introspection', 'profile', 'healthz']) {
  const measured = sides.flatMap((side) => summarisePhase(side, phaseName) ?? []);
  if (measured.length === 0) continue;
  console.log(`\n=== ${phaseName}: CPU µs per operation (profiled) ===`);
  for (const side of measured)
    console.log(
      `${side.side.padEnd(8)} ${fmt(side.total / side.operations)} µs total over ${side.operations} operations`,
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
