/**
 * How well the depth statistic (src/depth-parallax.ts) separates warped photos from real turns, for each lowest
 * correlation a block match must reach to count (`minMatch`), on the TUNING halves only: the one-photo attacks that
 * the motions alone accept (cross-fades are identity's to refuse) and the genuine tuning people who turned. Reads the
 * tracks `npm run eval:liveness` cached (run it first); never reads a reporting clip.
 *   npx tsx models/scripts/probe-depth-match.ts [--attacks models/.cache/liveness-attacks]
 * Prints, per threshold, the warps' highest and the people's lowest value in the warps' own log standard deviations
 * above the warps' mean: what the warp score (src/liveness-3d.ts) adds up, before its ±3 clip.
 */
import path from 'node:path';
import { depthParallax } from '../src/depth-parallax';
import { defaultClipLivenessOptions, videoTrack, type TrackFrame } from '../src/liveness-3d';
import { assessActiveLiveness } from '../src/liveness-signals';
import { argValue } from './lib/csv';
import { listClips, observeClips } from './lib/liveness-clips';

const args = process.argv.slice(2);
const { clips, ordered } = listClips({
  attacksDir: path.resolve(argValue(args, '--attacks') ?? 'models/.cache/liveness-attacks'),
  genuineDir: path.resolve(argValue(args, '--genuine') ?? '../shared/data/live-videos'),
  limit: Infinity,
});
const tuning = ordered.filter((c) => c.split === 'tune' || c.split === 'bona_fide_tune');
const observed = await observeClips(tuning, {
  cacheDir: path.resolve('models/.cache/liveness-tracks'),
  cachedOnly: true,
  quiet: true,
});
const base = defaultClipLivenessOptions;
const attacks: TrackFrame[][] = [];
const people: { name: string; track: TrackFrame[] }[] = [];
for (const c of clips) {
  const o = observed.get(c.name);
  if (!o || 'error' in o) continue;
  const track = videoTrack(o.obs);
  if (c.split === 'bona_fide_tune') people.push({ name: c.name, track });
  else if (c.split === 'tune' && c.kind !== 'cross_fade' && assessActiveLiveness(track, base).passed)
    attacks.push(track);
}

const { minParallaxYawDeg, minParallaxFrames } = base.consistency;
const depthOf = (track: TrackFrame[], minMatch: number) =>
  depthParallax(track, minParallaxYawDeg, minParallaxFrames, minMatch)?.residual ?? null;
const r2 = (v: number) => Math.round(v * 100) / 100;
console.log(
  `${attacks.length} tuning warps the motions accept; ${people.length} tuning people (those who turned are listed)`,
);
for (const minMatch of [0.7, 0.75, 0.8, 0.85, 0.9, 0.95]) {
  const logs = attacks
    .map((t) => depthOf(t, minMatch))
    .filter((v): v is number => v !== null && v > 0)
    .map(Math.log);
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1));
  const z = (v: number) => r2((Math.log(v) - mean) / sd);
  const turned = people
    .map((p) => ({ name: p.name, depth: depthOf(p.track, minMatch) }))
    .filter((p): p is { name: string; depth: number } => p.depth !== null && p.depth > 0);
  console.log(
    JSON.stringify({
      minMatch,
      warps: logs.length,
      warpsHighestZ: r2((Math.max(...logs) - mean) / sd),
      peopleLowestZ: Math.min(...turned.map((p) => z(p.depth))),
      people: Object.fromEntries(turned.map((p) => [p.name, { depth: r2(p.depth), z: z(p.depth) }])),
    }),
  );
}
