/**
 * How well the nose-tip parallax (src/depth-anchors.ts) separates warped photos from real turns, beside the three
 * statistics the warp score already averages, on the TUNING halves only: the one-photo attacks that the motions
 * alone accept (cross-fades are identity's to refuse) and the genuine tuning people who turned. Reads the tracks
 * `npm run eval:liveness` cached (run it first); never reads a reporting clip.
 *   npx tsx models/scripts/probe-depth-anchors.ts [--attacks DIR[,DIR…]] [--frames]
 */
import path from 'node:path';
import { depthAnchors } from '../src/depth-anchors';
import { depthParallax } from '../src/depth-parallax';
import { defaultClipLivenessOptions, videoTrack, warpScore, type TrackFrame } from '../src/liveness-3d';
import { assessActiveLiveness } from '../src/liveness-signals';
import { parallaxConsistency } from '../src/parallax';
import { photometricConsistency } from '../src/photometric';
import { argValue } from './lib/csv';
import { listClips, observeClips, type Clip } from './lib/liveness-clips';

const args = process.argv.slice(2);
const dirs = (argValue(args, '--attacks') ?? 'models/.cache/liveness-attacks').split(',');
const genuineDir = path.resolve(argValue(args, '--genuine') ?? '../shared/data/live-videos');
const tuning: Clip[] = [];
dirs.forEach((dir, i) => {
  const { ordered } = listClips({ attacksDir: path.resolve(dir), genuineDir, limit: Infinity });
  tuning.push(...ordered.filter((c) => c.split === 'tune' || (i === 0 && c.split === 'bona_fide_tune')));
});
const observed = await observeClips(tuning, {
  cacheDir: path.resolve('models/.cache/liveness-tracks'),
  cachedOnly: true,
  quiet: true,
});
const base = defaultClipLivenessOptions;
const c = base.consistency;
const r3 = (v: number | null | undefined) => (typeof v === 'number' ? Math.round(v * 1000) / 1000 : null);
const statsOf = (track: TrackFrame[]) => {
  const parallax = parallaxConsistency(track, c.minParallaxYawDeg, c.minParallaxFrames)?.ratio ?? null;
  const photometric = photometricConsistency(track, c.minParallaxYawDeg, c.minParallaxFrames)?.change ?? null;
  const depth = depthParallax(track, c.minParallaxYawDeg, c.minParallaxFrames)?.residual ?? null;
  const nose = depthAnchors(track, c.minParallaxYawDeg, c.minParallaxFrames);
  return {
    nose: r3(nose?.gain),
    score: r3(warpScore({ parallax, photometric, depth }, c)),
    depth: r3(depth),
    ...(args.includes('--frames')
      ? {
          frames: nose?.frames.map((f) => [
            r3(f.yawDelta),
            r3(f.gain),
            f.measured.map(r3),
            f.predicted.map(r3),
          ]),
        }
      : {}),
  };
};
const rows: { name: string; kind: string; stats: ReturnType<typeof statsOf> }[] = [];
for (const clip of tuning) {
  const o = observed.get(clip.name);
  if (!o || 'error' in o) continue;
  const track = videoTrack(o.obs);
  const person = clip.split === 'bona_fide_tune';
  if (!person && (clip.kind === 'cross_fade' || !assessActiveLiveness(track, base).passed)) continue;
  const stats = statsOf(track);
  if (person && stats.score === null) continue; // did not turn far enough for the warp statistics
  rows.push({ name: clip.name, kind: clip.kind, stats });
}
for (const row of rows) console.log(JSON.stringify(row));
const summary = (kind: string) => {
  const values = rows
    .filter((r) => r.kind === kind)
    .map((r) => r.stats.nose)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length - 1));
  return { kind, n: values.length, min: r3(values[0]), mean: r3(mean), sd: r3(sd), max: r3(values.at(-1)) };
};
for (const kind of new Set(rows.map((r) => r.kind))) console.log(JSON.stringify(summary(kind)));
