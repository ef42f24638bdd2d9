/**
 * Facial-age evaluation through the production pipeline (decode → detect → quality gate → estimate → decision):
 *   npm run eval:age -- --labels <csv> [--images <dir>] [--json] [--mode head|raw] [--weights <age-head.json>]
 * `--weights` runs the engine with another head than the default (age-head-combined.json), e.g.
 * models/weights/age-head.json (faceres alone) or models/weights/age-head-networks.json (the age networks alone).
 * CSV: `file,age` or `file,age_min,age_max` (paths relative to the CSV, or to --images). Faces sent back for a
 * retake count as not approved. The last line printed is one JSON object with the summary.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgeHeadWeights } from '../src/age-head';
import { rateWithInterval, type RateWithInterval } from '../src/calibration';
import { createVisionEngine, VisionInputError } from '../src/index';
import { argValue, readCsv } from './lib/csv';

const args = process.argv.slice(2);
const labels = argValue(args, '--labels');
if (!labels || !fs.existsSync(labels)) {
  console.error(`labels CSV not found (${labels ?? 'none given'}): pass --labels <csv>; skipping.`);
  process.exit(labels ? 0 : 2);
}
const imagesDir = argValue(args, '--images') ?? path.dirname(path.resolve(labels));
const mode = (argValue(args, '--mode') ?? 'head') as 'head' | 'raw';
const asJson = args.includes('--json');

const rows = readCsv(labels).map((r) => {
  const min = Number(r.age ?? r.age_min);
  const max = Number(r.age ?? r.age_max);
  return {
    file: path.resolve(imagesDir, r.file!),
    min,
    max,
    age: (min + max) / 2,
    gender: r.gender || null,
    race: r.race || null,
  };
});
const weightsFile = argValue(args, '--weights');
const engine = createVisionEngine({
  decision: { mode },
  ...(weightsFile ? { weights: JSON.parse(fs.readFileSync(weightsFile, 'utf8')) as AgeHeadWeights } : {}),
});
await engine.ready;
const results: {
  age: number;
  min: number;
  max: number;
  est?: number;
  approved: number[];
  retake: boolean;
  ms: number;
  gender: string | null;
  race: string | null;
}[] = [];
let inFlight = 0;
const queue = [...rows];
const concurrency = engine.status().workers;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      inFlight++;
      const t0 = performance.now();
      const bytes = fs.readFileSync(row.file);
      try {
        const r = await engine.analyzePhoto(bytes, { thresholds: [18, 21] });
        results.push({
          ...row,
          est: r.age,
          approved: r.approved_thresholds,
          retake: false,
          ms: performance.now() - t0,
        });
      } catch (error) {
        if (!(error instanceof VisionInputError)) throw error;
        results.push({
          ...row,
          approved: [],
          retake: error.code === 'poor_quality',
          ms: performance.now() - t0,
        });
      }
      inFlight--;
    }
  }),
);
await engine.close();

const detected = results.filter((r) => r.est !== undefined || r.retake);
const estimated = results.filter((r) => r.est !== undefined);
const err = (r: (typeof results)[number]) =>
  r.est! < r.min ? r.est! - r.min : r.est! > r.max ? r.est! - r.max : 0;
const mae = (rs: typeof results) =>
  rs.length ? rs.reduce((s, r) => s + Math.abs(err(r)), 0) / rs.length : NaN;
const buckets: [string, number, number][] = [
  ['<13', 0, 13],
  ['13-17', 13, 18],
  ['18-20', 18, 21],
  ['21-24', 21, 25],
  ['25-29', 25, 30],
  ['30-49', 30, 50],
  ['50+', 50, 200],
];
const maeByBucket = Object.fromEntries(
  buckets.map(([n, lo, hi]) => [n, round(mae(estimated.filter((r) => r.age >= lo && r.age < hi)))]),
);
// Shares over all faces of the group (undetected and retake count as not approved, as in production).
const share = (pick: (r: (typeof results)[number]) => boolean, t: number) => {
  const g = results.filter(pick);
  return g.length ? g.filter((r) => r.approved.includes(t)).length / g.length : NaN;
};
const ms = results.map((r) => r.ms).sort((a, b) => a - b);
const pct = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? NaN;
function round(v: number, d = 2) {
  return Number.isFinite(v) ? Math.round(v * 10 ** d) / 10 ** d : null;
}
const summary = {
  n: results.length,
  detected: detected.length,
  retakes: results.filter((r) => r.retake).length,
  mae: round(mae(estimated)),
  bias: round(estimated.reduce((s, r) => s + err(r), 0) / Math.max(1, estimated.length)),
  mae_by_bucket: maeByBucket,
  far_18: round(
    share((r) => r.max < 18, 18),
    4,
  ),
  far_21: round(
    share((r) => r.max < 21, 21),
    4,
  ),
  approve_adult_25: round(
    share((r) => r.min >= 25, 18),
    4,
  ),
  approve_adult_28: round(
    share((r) => r.min >= 28, 21),
    4,
  ),
  approval: approvalReport(),
  p50_ms: round(pct(0.5), 0),
  p95_ms: round(pct(0.95), 0),
  mode,
};
if (!asJson) {
  console.log(
    `n ${summary.n}  detected ${summary.detected} (${((100 * summary.detected) / summary.n).toFixed(1)} %)  retakes ${summary.retakes}`,
  );
  console.log(`MAE ${summary.mae} y  mean signed error ${summary.bias} y  (mode ${mode})`);
  for (const [b, v] of Object.entries(maeByBucket)) console.log(`  MAE ${b.padEnd(6)} ${v}`);
  console.log(
    `T=18: under-18 approved ${pct100(summary.far_18)}   aged ≥25 approved ${pct100(summary.approve_adult_25)}`,
  );
  console.log(
    `T=21: under-21 approved ${pct100(summary.far_21)}   aged ≥28 approved ${pct100(summary.approve_adult_28)}`,
  );
  for (const t of [18, 21]) {
    const a = summary.approval[`T${t}`] as { by_bucket: Record<string, RateWithInterval> };
    console.log(`T=${t} approval by bucket, 95 % Clopper–Pearson interval:`);
    for (const [b, r] of Object.entries(a.by_bucket)) console.log(`  ${b.padEnd(6)} ${ci(r)}`);
  }
  console.log(`latency per image (2 workers, concurrent) p50 ${summary.p50_ms} ms  p95 ${summary.p95_ms} ms`);
}
console.log(JSON.stringify(summary));
/**
 * Approval rates with Clopper–Pearson 95 % intervals, per age bucket (a face counts in a bucket when its whole
 * labelled range lies in it) and per gender/race where the CSV has them. Undetected faces and retakes count as not
 * approved, as in production.
 */
function approvalReport() {
  type R = (typeof results)[number];
  const rate = (rs: R[], t: number): RateWithInterval =>
    rateWithInterval(rs.filter((r) => r.approved.includes(t)).length, rs.length);
  const groupBy = (rs: R[], key: (r: R) => string | null) => {
    const m = new Map<string, R[]>();
    for (const r of rs) {
      const k = key(r);
      if (k !== null) m.set(k, [...(m.get(k) ?? []), r]);
    }
    return [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
  };
  const out: Record<string, unknown> = {};
  for (const t of [18, 21]) {
    const under = results.filter((r) => r.max < t);
    const adults = results.filter((r) => r.min >= 25);
    out[`T${t}`] = {
      [`under_${t}`]: rate(under, t),
      under_13: rate(
        results.filter((r) => r.max < 13),
        t,
      ),
      [`hard_13_${t - 1}`]: rate(
        results.filter((r) => r.min >= 13 && r.max < t),
        t,
      ),
      adults_25: rate(adults, t),
      by_bucket: Object.fromEntries(
        buckets.map(([name, lo, hi]) => [
          name,
          rate(
            results.filter((r) => r.min >= lo && r.max < hi),
            t,
          ),
        ]),
      ),
      by_gender: Object.fromEntries(
        groupBy(results, (r) => r.gender).map(([g, rs]) => [
          g,
          {
            [`under_${t}`]: rate(
              rs.filter((r) => r.max < t),
              t,
            ),
            adults_25: rate(
              rs.filter((r) => r.min >= 25),
              t,
            ),
          },
        ]),
      ),
      by_race: Object.fromEntries(
        groupBy(results, (r) => r.race).map(([g, rs]) => [
          g,
          {
            [`under_${t}`]: rate(
              rs.filter((r) => r.max < t),
              t,
            ),
            adults_25: rate(
              rs.filter((r) => r.min >= 25),
              t,
            ),
          },
        ]),
      ),
    };
  }
  return out;
}
function ci(r: RateWithInterval) {
  return r.rate === null || !r.ci95
    ? 'n/a'
    : `${(100 * r.rate).toFixed(2)} % [${(100 * r.ci95[0]).toFixed(2)}, ${(100 * r.ci95[1]).toFixed(2)}] (${r.approved}/${r.n})`;
}
function pct100(v: number | null) {
  return v === null ? 'n/a' : `${(100 * v).toFixed(2)} %`;
}
void inFlight;
