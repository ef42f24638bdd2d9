/**
 * Trains the age head reproducibly (seed 20240518) on faces-dev:
 *   npm run train:age-head [-- --labels ../shared/data/faces-dev/labels.csv --target-far 0.005]
 * Features: Human's 1024-d faceres descriptor + its age output, standardised. Models: ridge regression for the
 * age estimate; logistic heads "age ≥ 21" and "age ≥ 25". Each threshold's cut-off is chosen on out-of-fold
 * scores (5 × repeated 5-fold CV) so that at most `target-far` of under-T faces passing the quality gate are
 * approved. The CV figures printed here are the honest accuracy estimate: faces-dev is also the training set.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgeHeadWeights, CalibratedCutoff } from '../src/age-head';
import { featureVector } from '../src/age-head';
import { assessQuality } from '../src/quality';
import { argValue, readCsv } from './lib/csv';
import { auc, fitLogistic, fitRidge, mulberry32, stratifiedFolds, type Matrix } from './lib/linear-models';
import { modelsDir, observeFiles } from './lib/observe-dataset';

const SEED = 20240518;
const REPEATS = 5;
const FOLDS = 5;
const HEADS = { adult_21: 21, adult_25: 25 } as const;
const THRESHOLDS = [16, 18, 21];
const RIDGE_LAMBDAS = [0.3, 1, 3, 10];
const LOGISTIC_LAMBDAS = [0.01, 0.03, 0.1];

const args = process.argv.slice(2);
const labels = path.resolve(
  argValue(args, '--labels') ?? path.join(modelsDir, '../../shared/data/faces-dev/labels.csv'),
);
const targetFar = Number(argValue(args, '--target-far') ?? 0.005);
if (!fs.existsSync(labels)) {
  console.error(`faces-dev labels not found at ${labels}; pass --labels <csv>. Skipping training.`);
  process.exit(0);
}

const rows = readCsv(labels);
const observed = await observeFiles(
  rows.map((r) => path.resolve(path.dirname(labels), r.file!)),
  'faces-dev',
);
const data = observed
  .map((o, i) => ({ o, age: Number(rows[i]!.age) }))
  .filter(
    (
      d,
    ): d is {
      o: { obs: NonNullable<(typeof observed)[number]['obs']> } & (typeof observed)[number];
      age: number;
    } => !!d.o.obs && Number.isFinite(d.age),
  );
console.log(`faces-dev: ${rows.length} rows, ${data.length} faces detected`);

const raw = data.map((d) => featureVector(d.o.obs));
const ages = data.map((d) => d.age);
const gateOk = data.map((d) => assessQuality(d.o.obs.quality).ok);
const n = data.length;
const d = raw[0]!.length;

function standardiser(idx: number[]) {
  const mean = new Array<number>(d).fill(0);
  const std = new Array<number>(d).fill(0);
  for (const i of idx) raw[i]!.forEach((v, j) => (mean[j]! += v / idx.length));
  for (const i of idx) raw[i]!.forEach((v, j) => (std[j]! += (v - mean[j]!) ** 2 / idx.length));
  for (let j = 0; j < d; j++) std[j] = Math.sqrt(std[j]!) || 1;
  const apply = (i: number) => Float64Array.from(raw[i]!, (v, j) => (v - mean[j]!) / std[j]!);
  return { mean, std, apply };
}

const dot = (w: number[], x: Float64Array) => w.reduce((s, v, j) => s + v * x[j]!, 0);
const bucket = (a: number) =>
  a < 13
    ? '<13'
    : a < 18
      ? '13-17'
      : a < 21
        ? '18-20'
        : a < 25
          ? '21-24'
          : a < 30
            ? '25-29'
            : a < 50
              ? '30-49'
              : '50+';
const strata = ages.map(bucket);

interface Oof {
  age: Float64Array;
  logits: Record<string, Float64Array>;
}

function crossValidate(repeat: number, ridgeLambda: number, logLambda: number): Oof {
  const folds = stratifiedFolds(strata, FOLDS, mulberry32(SEED + repeat));
  const oof: Oof = {
    age: new Float64Array(n),
    logits: Object.fromEntries(Object.keys(HEADS).map((h) => [h, new Float64Array(n)])),
  };
  for (let k = 0; k < FOLDS; k++) {
    const train = folds.flatMap((f, i) => (f === k ? [] : [i]));
    const test = folds.flatMap((f, i) => (f === k ? [i] : []));
    const s = standardiser(train);
    const X: Matrix = train.map(s.apply);
    const ridge = fitRidge(
      X,
      train.map((i) => ages[i]!),
      ridgeLambda,
    );
    const heads = Object.fromEntries(
      Object.entries(HEADS).map(([name, t]) => [
        name,
        fitLogistic(
          X,
          train.map((i) => (ages[i]! >= t ? 1 : 0)),
          logLambda,
        ),
      ]),
    );
    for (const i of test) {
      const x = s.apply(i);
      oof.age[i] = dot(ridge.w, x) + ridge.b;
      for (const [name, h] of Object.entries(heads)) oof.logits[name]![i] = dot(h.w, x) + h.b;
    }
  }
  return oof;
}

const mae = (pred: ArrayLike<number>, idx: number[]) =>
  idx.reduce((s, i) => s + Math.abs(pred[i]! - ages[i]!), 0) / idx.length;
const all = [...Array(n).keys()];

// Hyper-parameters on the first repeat only (cheap, and the cut-offs below are chosen on other repeats too).
const t0 = performance.now();
let best = { ridge: RIDGE_LAMBDAS[0]!, logistic: LOGISTIC_LAMBDAS[0]!, mae: Infinity, auc: -Infinity };
for (const rl of RIDGE_LAMBDAS) {
  const oof = crossValidate(0, rl, LOGISTIC_LAMBDAS[0]!);
  const m = mae(oof.age, all);
  if (m < best.mae) best = { ...best, ridge: rl, mae: m };
}
for (const ll of LOGISTIC_LAMBDAS) {
  const oof = crossValidate(0, best.ridge, ll);
  const a = auc(
    Array.from(oof.logits.adult_21!),
    ages.map((x) => (x >= 18 ? 1 : 0)),
  );
  if (a > best.auc) best = { ...best, logistic: ll, auc: a };
}
console.log(
  `lambda: ridge ${best.ridge}, logistic ${best.logistic} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
);

const repeats = Array.from({ length: REPEATS }, (_, r) => crossValidate(r, best.ridge, best.logistic));
const gated = all.filter((i) => gateOk[i]);

function chooseCut(head: string, threshold: number): number {
  const scores = repeats
    .flatMap((o) => gated.filter((i) => ages[i]! < threshold).map((i) => o.logits[head]![i]!))
    .sort((a, b) => b - a);
  const k = Math.floor(targetFar * scores.length);
  // Strictly above the (k+1)-th highest minor score: at most k of them pass.
  return scores[k]! + 1e-6;
}

function rate(head: string, cut: number, pick: (age: number) => boolean, o: Oof): number {
  const idx = gated.filter((i) => pick(ages[i]!));
  return idx.filter((i) => o.logits[head]![i]! >= cut).length / Math.max(1, idx.length);
}

const cutoffs: CalibratedCutoff[] = [];
const report: Record<string, unknown> = {};
for (const threshold of THRESHOLDS) {
  let chosen: { head: string; cut: number; adult: number } | null = null;
  for (const head of Object.keys(HEADS)) {
    const cut = chooseCut(head, threshold);
    const adult = repeats.reduce((s, o) => s + rate(head, cut, (a) => a >= threshold + 7, o), 0) / REPEATS;
    if (!chosen || adult > chosen.adult) chosen = { head, cut, adult };
  }
  const { head, cut } = chosen!;
  cutoffs.push({ threshold, head, cutoff: Math.round(cut * 1e6) / 1e6, target_far: targetFar });
  const far = repeats.map((o) => rate(head, cut, (a) => a < threshold, o));
  const retake = 1 - gated.length / n;
  report[`T${threshold}`] = {
    head,
    cutoff: cut,
    far_mean: far.reduce((a, b) => a + b, 0) / REPEATS,
    far_max: Math.max(...far),
    approve_ge_T7: repeats.reduce((s, o) => s + rate(head, cut, (a) => a >= threshold + 7, o), 0) / REPEATS,
    approve_ge_25: repeats.reduce((s, o) => s + rate(head, cut, (a) => a >= 25, o), 0) / REPEATS,
    approve_18_20: repeats.reduce((s, o) => s + rate(head, cut, (a) => a >= 18 && a < 21, o), 0) / REPEATS,
    approve_21_24: repeats.reduce((s, o) => s + rate(head, cut, (a) => a >= 21 && a < 25, o), 0) / REPEATS,
    retake_rate: retake,
  };
}

const oofAgeMean = Float64Array.from(all, (i) => repeats.reduce((s, o) => s + o.age[i]!, 0) / REPEATS);
const rawAge = data.map((x) => x.o.obs.modelAge);
const buckets = ['<13', '13-17', '18-20', '21-24', '25-29', '30-49', '50+'];
const residualSd = Math.sqrt(all.reduce((s, i) => s + (oofAgeMean[i]! - ages[i]!) ** 2, 0) / n);
const rawSd = Math.sqrt(all.reduce((s, i) => s + (rawAge[i]! - ages[i]!) ** 2, 0) / n);
report.mae_cv_ridge = repeats.reduce((s, o) => s + mae(o.age, all), 0) / REPEATS;
report.mae_raw_human = mae(rawAge, all);
report.mae_by_bucket_cv = Object.fromEntries(
  buckets.map((b) => [
    b,
    mae(
      oofAgeMean,
      all.filter((i) => strata[i] === b),
    ),
  ]),
);
report.auc_18_cv = auc(
  Array.from(repeats[0]!.logits.adult_21!),
  ages.map((a) => (a >= 18 ? 1 : 0)),
);
report.auc_16_17_vs_18_24_cv = (() => {
  const idx = all.filter((i) => ages[i]! >= 16 && ages[i]! < 25);
  return auc(
    idx.map((i) => repeats[0]!.logits.adult_21![i]!),
    idx.map((i) => (ages[i]! >= 18 ? 1 : 0)),
  );
})();
report.n = n;
report.gated = gated.length;

// Final model on all faces; the cut-offs stay those chosen on out-of-fold scores, which is how unseen faces score.
const s = standardiser(all);
const X = all.map(s.apply);
const ridge = fitRidge(X, ages, best.ridge);
const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
const weights: AgeHeadWeights = {
  format: 'attestly-age-head/1',
  features: 'faceres-descriptor-1024+faceres-age',
  seed: SEED,
  trained_on: `faces-dev (UTKFace subset, research use only), ${n} faces`,
  n,
  feature_mean: s.mean.map(r6),
  feature_std: s.std.map(r6),
  ridge: { w: ridge.w.map(r6), b: r6(ridge.b), residual_sd: Math.round(residualSd * 100) / 100 },
  heads: Object.fromEntries(
    Object.entries(HEADS).map(([name, t]) => {
      const h = fitLogistic(
        X,
        ages.map((a) => (a >= t ? 1 : 0)),
        best.logistic,
      );
      return [name, { target: t, w: h.w.map(r6), b: r6(h.b) }];
    }),
  ),
  cutoffs,
  raw: { residual_sd: Math.round(rawSd * 100) / 100 },
};
fs.mkdirSync(path.join(modelsDir, 'weights'), { recursive: true });
fs.writeFileSync(path.join(modelsDir, 'weights/age-head.json'), JSON.stringify(weights));
fs.writeFileSync(
  path.join(modelsDir, 'weights/age-head.cv.json'),
  `${JSON.stringify({ seed: SEED, repeats: REPEATS, folds: FOLDS, target_far: targetFar, lambda: best, ...report }, null, 2)}\n`,
);
console.log(JSON.stringify(report, null, 2));
console.log('wrote models/weights/age-head.json and models/weights/age-head.cv.json');
