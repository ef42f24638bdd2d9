/**
 * The age decision on real people's videos (issue 22): the genuine recordings in ../shared/data/live-videos (38
 * adults, none of them in any training or calibration set) taken through the video path as an upload would be, each
 * clip's first 5 s at most 640 px wide, as `npm run eval:liveness` scores them (the same track cache).
 *
 *   npm run eval:age-video [-- --genuine ../shared/data/live-videos] [--json]
 *
 * For each clip: the quality gate on the best frames, then `decideAge` over the usable ones with the default head
 * (the same function and settings the engine's video answer uses). Reported: how many adults the age part approves
 * at 18 and at 21, with Clopper–Pearson 95 % intervals. Liveness is left out: these recordings were not made to
 * answer a challenge (few both turn and blink), and `npm run eval:liveness` measures them for that.
 * People the labels do not call adults (`approx_age_band` other than `adult`) are listed apart, not counted.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  clopperPearson,
  decideAge,
  defaultDecisionConfig,
  assessQuality,
  defaultQualityGate,
} from '../src/index';
import { committedWeights } from '../src/vision-engine';
import { argValue, readCsv } from './lib/csv';
import { percentile } from '../src/liveness-signals';
import { observeClips, type Clip } from './lib/liveness-clips';

const args = process.argv.slice(2);
const json = args.includes('--json');
const genuineDir = path.resolve(argValue(args, '--genuine') ?? '../shared/data/live-videos');
const cacheDir = path.resolve('models/.cache/liveness-tracks');

const labelsFile = path.join(genuineDir, 'labels.csv');
if (!fs.existsSync(labelsFile)) {
  console.error(`${labelsFile} not found: the genuine recordings are in ../shared/data; nothing to measure.`);
  process.exit(0);
}
const labels = readCsv(labelsFile);
const bands = new Map(labels.map((r) => [r.file!, r.approx_age_band ?? '']));
const clips: Clip[] = labels.map((r) => ({
  name: r.file!,
  kind: 'bona_fide',
  split: 'bona_fide',
  file: path.join(genuineDir, r.file!),
  trim: true,
}));
const observed = await observeClips(clips, { cacheDir, cachedOnly: false, quiet: json });

const r3 = (v: number) => Math.round(v * 1000) / 1000;
interface Row {
  clip: string;
  band: string;
  outcome: 'decided' | 'poor_quality' | string;
  age: number | null;
  approved: number[];
  childGuard: boolean;
  usableFrames: number;
  reasons: string[];
}
const rows: Row[] = [];
for (const clip of clips) {
  const o = observed.get(clip.name);
  if (!o) continue;
  const band = bands.get(clip.name) ?? '';
  const base = {
    clip: clip.name,
    band,
    age: null,
    approved: [],
    childGuard: false,

    usableFrames: 0,
  };
  if ('error' in o) {
    rows.push({ ...base, outcome: o.error, reasons: [] });
    continue;
  }
  const assessed = o.obs.best.map((b) => ({ b, q: assessQuality(b.quality, defaultQualityGate) }));
  const usable = assessed.filter((a) => a.q.ok).map((a) => a.b);
  if (!usable.length) {
    rows.push({
      ...base,
      outcome: 'poor_quality',
      reasons: [...new Set(assessed.flatMap((a) => a.q.reasons))],
    });
    continue;
  }
  const d = decideAge(usable, [18, 21], committedWeights, defaultDecisionConfig);
  rows.push({
    ...base,
    outcome: 'decided',
    age: d.age,
    approved: d.approved_thresholds,
    childGuard: d.child_guard,
    usableFrames: usable.length,
    reasons: d.threshold_decisions
      .filter((t) => !t.approved)
      .map((t) => `${t.threshold}: ${t.reason} (score ${r3(t.score)}, cut-off ${r3(t.cutoff)})`),
  });
}

const rate = (k: number, n: number) => {
  const [lo, hi] = clopperPearson(k, n);
  return { k, n, rate: n ? r3(k / n) : null, ci95: [r3(lo), r3(hi)] };
};
const adults = rows.filter((r) => r.band === 'adult');
const estimates = adults.flatMap((r) => (r.age === null ? [] : [r.age]));
const summary = {
  adults: adults.length,
  not_labelled_adult: rows
    .filter((r) => r.band !== 'adult')
    .map((r) => ({ clip: r.clip, band: r.band, age: r.age })),
  refused_for_quality: adults.filter((r) => r.outcome !== 'decided').length,
  age_part_approves_18: rate(adults.filter((r) => r.approved.includes(18)).length, adults.length),
  age_part_approves_21: rate(adults.filter((r) => r.approved.includes(21)).length, adults.length),
  child_guard_fired: adults.filter((r) => r.childGuard).length,
  median_estimated_age: r3(percentile(estimates, 0.5)),
  clips: rows,
};

if (!json) {
  const pct = (x: ReturnType<typeof rate>) =>
    `${x.k}/${x.n} = ${x.n ? ((100 * x.k) / x.n).toFixed(1) : 'n/a'} % (95 % CI ${(100 * x.ci95[0]!).toFixed(1)}–${(100 * x.ci95[1]!).toFixed(1)} %)`;
  for (const r of rows)
    console.log(
      `${r.clip} ${r.band.padEnd(7)} ${r.outcome.padEnd(12)} age ${r.age ?? '–'} approved [${r.approved.join(', ')}]` +
        ` frames ${r.usableFrames}${r.childGuard ? ' child-guard' : ''}${r.reasons.length ? ` (${r.reasons.join('; ')})` : ''}`,
    );
  console.log(`\nadults (labels): ${summary.adults}; refused for quality: ${summary.refused_for_quality}`);
  console.log(`age part approves 18+: ${pct(summary.age_part_approves_18)}`);
  console.log(`age part approves 21+: ${pct(summary.age_part_approves_21)}`);
  console.log(
    `child guard fired on ${summary.child_guard_fired} adults; median estimate ${summary.median_estimated_age}`,
  );
}
console.log(JSON.stringify(summary));
