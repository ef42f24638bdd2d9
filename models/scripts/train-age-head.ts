/**
 * Trains and calibrates the age head reproducibly (seed 20261126) on faces-dev + faces-train + faces-aaf:
 *   npm run train:age-head [-- --features cnn|combined|combined-ab|rich|base] [--cache-only] [--folds 5]
 *     [--max-upper 0.01] [--loso] [--out <dir>] [--cnn <dir>] [--crops <dir>] [--ridge-lambda 1]
 *     [--logistic-lambda 0.1]
 *     [--ridge-network-weight 1] [--logistic-network-weight 1]
 *
 * Features, standardised over all faces:
 * - 'cnn' (issue 22 R1, the head an operator chooses with ATTESTLY_AGE_MODEL=networks): the age networks' mean
 *   age distribution (crop and mirror image) read as its expected age and the log-odds of "age ≥ 13, 16, 18, 21,
 *   25" (age-cnn.ts), 6 values. They are read from the networks' out-of-fold scores (`--cnn`, default
 *   models/.cache/age-cnn, written by `npm run train:age-model`): every face's score comes from a network that never
 *   trained on it (faces-dev: both networks, averaged as the engine does; neither trained on it). The crops'
 *   index gives each face's quality metrics (`--crops`, default: the committed networks' size's crops beside
 *   `--cnn`, models/.cache/age-crops-160 today, the folder train:age-model writes).
 * - 'base' (this script's default; ATTESTLY_AGE_MODEL=faceres, the engine's default head until 2026-11-28):
 *   faceres's 1024-d descriptor and its age output, 1,025 values.
 * - 'combined' (issue 22, ATTESTLY_AGE_MODEL=combined, the engine's default head): 'base' and then the six 'cnn'
 *   values of network a alone, read from the out-of-fold distribution of the crop alone (no mirror: with faceres
 *   beside them it added nothing), 1,031 values, on the faces both passes found; train:age-model fits it with
 *   `--ridge-network-weight 10 --logistic-network-weight 3`. A training face network a trained on reads network b's
 *   score (the same recipe on the other half), so every score comes from a network that never saw the face.
 * - 'combined-ab' (measured, not shipped: MODEL_CARD.md): the same with both networks averaged, as the engine would
 *   average them (faces-dev: both; a training face: the one that did not train on it).
 * - 'rich' (issue 22 R2, measured, not shipped: MODEL_CARD.md): faceres's block-9 and block-11 pooled activations
 *   and its age softmax (faceres-features.ts) before those, 4,197 values from the same faceres pass.
 * 'base' and 'rich' read the observation cache (models/scripts/observe-datasets.ts) and run on the same faces and
 * folds, so they compare directly ('combined' reads it too, on the faces both passes found). Models: ridge
 * regression for the age estimate; logistic heads "age ≥ 21", "age ≥ 25" and "child" (age < 13). Each feature set
 * has its own file, so refitting one head never replaces another: 'base' writes age-head.json
 * (ATTESTLY_AGE_MODEL=faceres), 'cnn' age-head-networks.json (ATTESTLY_AGE_MODEL=networks), 'combined'
 * age-head-combined.json (ATTESTLY_AGE_MODEL=combined, the default), 'combined-ab' age-head-combined-ab.json,
 * 'rich' age-head-rich.json, each with its .cv.json report; `--out` writes them there instead of models/weights.
 *
 * Method (MODEL_CARD.md "How the cut-offs are chosen"):
 * 1. Grouped, stratified K-fold cross-fitting over the three sources together (strata: source × age bucket; a
 *    fold never splits a near-duplicate group of a source, because those were removed when the sets were built,
 *    and every fold holds every source). Every face gets out-of-fold (OOF) scores from a head not fitted on it.
 * 2. Cut-offs are chosen on those OOF scores only, pooled over the sources (never tuned on one alone): for each T
 *    the lowest cut-off at which the **upper limit of the 95 % Clopper–Pearson interval** of the approval rate of
 *    the hard group (ages 13 … T−1, on their own) is ≤ `max-upper` (default 1 %), and that of children under 13
 *    (after the child guard of step 3, as production decides) is ≤ half of it. Faces that fail the quality gate
 *    are never decided in production and are left out.
 * 3. The child guard: the child head's cut-off lets at most 1 % of OOF adults 21+ be vetoed; plus an estimated
 *    age under 14 is never approved.
 * 4. The shipped head is the average of the K fold heads (one standardiser, so averaging is exact for a linear
 *    model): it is not re-fitted on the calibration faces.
 * Each source is reported separately, with 95 % intervals, per age bucket and per gender/race.
 * `--loso` adds leave-one-source-out: heads fitted on two sources, scored on the third with the pooled cut-offs.
 * `--cache-only` uses only faces already observed (models/scripts/observe-datasets.ts fills the cache).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgeFeatureSet, AgeHeadWeights, CalibratedCutoff, ChildGuard } from '../src/age-head';
import { chooseCutoff, clopperPearson } from '../src/calibration';
import { AGE_CNN_TAILS } from '../src/age-cnn';
import { argValue } from './lib/csv';
import { auc, fitLogistic, fitRidge, mulberry32, stratifiedFolds, type Matrix } from './lib/linear-models';
import { modelsDir } from './lib/observe-dataset';
import { readFaces, SOURCES } from './lib/age-head-faces';
import { ageHeadSummary, bucket, r2, r3, r6, type Scores } from './lib/age-head-report';
const SEED = 20261126;
const HEADS = { adult_21: { target: 21, adult: true }, adult_25: { target: 25, adult: true } } as const;
const CHILD_HEAD = 'child_13';
const CHILD_AGE = 13;
const CHILD_MIN_ESTIMATE = 14;
const HARD_MIN_AGE = 13;
const THRESHOLDS = [16, 18, 21];
const args0 = process.argv.slice(2);
const lambdaArg = (name: string, fallback: number) => {
  const i = args0.indexOf(name);
  return i >= 0 && args0[i + 1] !== undefined ? Number(args0[i + 1]) : fallback;
};
// Penalties of the ridge and logistic fits (features standardised); --ridge-lambda / --logistic-lambda override them.
// The six age-network features barely need one (thousands of faces per feature; a penalty of 1 halved the ridge's
// weights and raised its MAE from ~5 to ~7 years), the thousand-odd faceres features do; the few-feature fits run
// more iterations, because their features are strongly correlated (slow, not hard, to converge).
const fewFeatures = (argValue(args0, '--features') ?? 'base') === 'cnn';
const RIDGE_LAMBDA = lambdaArg('--ridge-lambda', fewFeatures ? 1e-3 : 1);
const LOGISTIC_LAMBDA = lambdaArg('--logistic-lambda', fewFeatures ? 1e-3 : 0.1);
const LOGISTIC_ITERATIONS = fewFeatures ? 3000 : 200;

const args = process.argv.slice(2);
const folds = Number(argValue(args, '--folds') ?? 5);
const maxUpper = Number(argValue(args, '--max-upper') ?? 0.01);
const cacheOnly = args.includes('--cache-only');
const loso = args.includes('--loso');
const featureArg = argValue(args, '--features') ?? 'base';
const FEATURE_SETS: Record<string, AgeFeatureSet> = {
  cnn: 'faceres-age-cnn-ab',
  rich: 'faceres-blocks-9-11+softmax+descriptor+age',
  base: 'faceres-descriptor-1024+faceres-age',
  combined: 'faceres-descriptor-1024+faceres-age+age-cnn-a',
  'combined-ab': 'faceres-descriptor-1024+faceres-age+age-cnn-ab',
};
const featureSet = FEATURE_SETS[featureArg];
if (!featureSet) {
  console.error(`--features must be one of ${Object.keys(FEATURE_SETS).join(', ')}, not ${featureArg}`);
  process.exit(2);
}
const HEAD_FILES: Record<string, string> = {
  cnn: 'age-head-networks',
  rich: 'age-head-rich',
  base: 'age-head',
  combined: 'age-head-combined',
  'combined-ab': 'age-head-combined-ab',
};
const headFile = HEAD_FILES[featureArg]!;
const cnnDir = path.resolve(argValue(args, '--cnn') ?? path.join(modelsDir, '.cache/age-cnn'));
const cropDirArg = argValue(args, '--crops');
const cropDir = cropDirArg ? path.resolve(cropDirArg) : undefined;
const outDir = path.resolve(argValue(args, '--out') ?? path.join(modelsDir, 'weights'));
const dataDir = path.resolve(argValue(args, '--data') ?? path.join(modelsDir, '../../shared/data'));
const present = SOURCES.filter((s) => fs.existsSync(path.join(dataDir, s, 'labels.csv')));
if (!present.length) {
  console.error(`no face sets under ${dataDir} (faces-dev, faces-train, faces-aaf); skipping training.`);
  process.exit(0);
}

const t0 = performance.now();
const { faces, counts } = await readFaces({ dataDir, present, featureSet, cnnDir, cropDir, cacheOnly });
console.log(`faces: ${JSON.stringify(counts)}`);
const n = faces.length;
const d = faces[0]!.x!.length;

// One standardiser over every face (unsupervised), so fold heads share a feature space and can be averaged.
const mean = new Float64Array(d);
const std = new Float64Array(d);
for (const f of faces) for (let j = 0; j < d; j++) mean[j]! += f.x![j]! / n;
for (const f of faces) for (let j = 0; j < d; j++) std[j]! += (f.x![j]! - mean[j]!) ** 2 / n;
// A constant feature (a unit dead on every face) has no spread: it is left at 0 after centring.
for (let j = 0; j < d; j++) std[j] = Math.sqrt(std[j]!) || 1;
const X: Matrix = faces.map((f) => {
  const z = Float64Array.from(f.x!, (v, j) => (v - mean[j]!) / std[j]!);
  f.x = null; // the raw copy is not needed again (thousands of faces × 4,197 doubles)
  return z;
});
const ages = faces.map((f) => f.age);

interface Fitted {
  ridge: { w: number[]; b: number };
  heads: Record<string, { w: number[]; b: number }>;
}

// --ridge-network-weight k / --logistic-network-weight k (the combined heads): that fit sees the age networks' six
// values (last in the vector) multiplied by k after standardising, so the one penalty over a thousand faceres
// values weighs on them k² less. The weights it finds are multiplied by k back, so every model reads the same
// standardised features and the engine reads the head unchanged.
const networkValues = 1 + AGE_CNN_TAILS.length; // ageCnnFeatures: the expected age and one log-odds per tail
const networkWeight = (name: string) => {
  const k = Number(argValue(args0, name) ?? 1);
  if (!(k > 0) || (k !== 1 && !featureArg.startsWith('combined'))) {
    console.error(`${name} is a positive number, for the combined heads only (not ${featureArg})`);
    process.exit(2);
  }
  return k;
};
const ridgeNetworkWeight = networkWeight('--ridge-network-weight');
const logisticNetworkWeight = networkWeight('--logistic-network-weight');

/** Runs one fit with the networks' values scaled by k in the rows it reads, and maps its weights back. */
function withNetworkWeight(
  rows: Matrix,
  k: number,
  fitOne: () => { w: number[]; b: number },
): { w: number[]; b: number } {
  if (k === 1) return fitOne();
  const saved = rows.map((r) => r.slice(d - networkValues));
  for (const r of rows) for (let j = d - networkValues; j < d; j++) r[j] = r[j]! * k;
  try {
    const m = fitOne();
    return { w: m.w.map((v, j) => (j >= d - networkValues ? v * k : v)), b: m.b };
  } finally {
    rows.forEach((r, i) => r.set(saved[i]!, d - networkValues));
  }
}

function fit(idx: number[]): Fitted {
  const Xs = idx.map((i) => X[i]!);
  const ys = idx.map((i) => ages[i]!);
  const ridge = withNetworkWeight(Xs, ridgeNetworkWeight, () => fitRidge(Xs, ys, RIDGE_LAMBDA, 120));
  const logistic = (labels: number[]) =>
    withNetworkWeight(Xs, logisticNetworkWeight, () =>
      fitLogistic(Xs, labels, LOGISTIC_LAMBDA, LOGISTIC_ITERATIONS),
    );
  const heads: Fitted['heads'] = {};
  for (const [name, h] of Object.entries(HEADS))
    heads[name] = logistic(ys.map((a) => (a >= h.target ? 1 : 0)));
  heads[CHILD_HEAD] = logistic(ys.map((a) => (a < CHILD_AGE ? 1 : 0)));
  return { ridge, heads };
}

const dot = (w: readonly number[], x: Float64Array) => {
  let s = 0;
  for (let j = 0; j < x.length; j++) s += w[j]! * x[j]!;
  return s;
};
const headNames = [...Object.keys(HEADS), CHILD_HEAD];
const emptyScores = (): Scores => ({
  age: new Float64Array(n).fill(NaN),
  logits: Object.fromEntries(headNames.map((h) => [h, new Float64Array(n).fill(NaN)])),
});
function score(model: Fitted, idx: number[], into: Scores) {
  for (const i of idx) {
    into.age[i] = dot(model.ridge.w, X[i]!) + model.ridge.b;
    for (const h of headNames) into.logits[h]![i] = dot(model.heads[h]!.w, X[i]!) + model.heads[h]!.b;
  }
}

// 1. Cross-fitting.
const strata = faces.map((f) => `${f.source}:${bucket(f.age)}`);
const fold = stratifiedFolds(strata, folds, mulberry32(SEED));
const oof = emptyScores();
const models: Fitted[] = [];
for (let k = 0; k < folds; k++) {
  const tk = performance.now();
  const train = fold.flatMap((f, i) => (f === k ? [] : [i]));
  const test = fold.flatMap((f, i) => (f === k ? [i] : []));
  const model = fit(train);
  models.push(model);
  score(model, test, oof);
  console.log(
    `fold ${k + 1}/${folds}: ${train.length} fitted, ${test.length} scored (${((performance.now() - tk) / 1000).toFixed(0)} s)`,
  );
}

const all = [...Array(n).keys()];
const gated = all.filter((i) => faces[i]!.gate);

// 2. Child guard on OOF scores: veto at most 1 % of adults 21+.
const adultChild = gated
  .filter((i) => ages[i]! >= 21)
  .map((i) => oof.logits[CHILD_HEAD]![i]!)
  .sort((a, b) => b - a);
const childCut = adultChild[Math.floor(0.01 * adultChild.length)]! + 1e-6;
const childGuard: ChildGuard = {
  head: CHILD_HEAD,
  cutoff: r6(childCut),
  min_age_estimate: CHILD_MIN_ESTIMATE,
};
const guarded = (i: number, s: Scores = oof) =>
  s.logits[CHILD_HEAD]![i]! >= childGuard.cutoff || s.age[i]! < childGuard.min_age_estimate;

// 3. Cut-offs on OOF scores, pooled over sources, hard group on its own, children as a hard guard. One head serves
// every T, with cut-offs that never fall as T rises: clearing a higher T then implies every lower T (decision.ts
// approves T when any cut-off at or above T is cleared), so no higher cut-off can loosen a lower T's bound.
const cutoffs: CalibratedCutoff[] = [];
let bestHead: { head: string; cuts: CalibratedCutoff[]; adults: number } | null = null;
for (const head of Object.keys(HEADS)) {
  const cuts: CalibratedCutoff[] = [];
  let floor = Number.NEGATIVE_INFINITY;
  for (const T of THRESHOLDS) {
    const hard = gated.filter((i) => ages[i]! >= HARD_MIN_AGE && ages[i]! < T);
    // Children are held to half the teenagers' bound, counted as production decides: the child guard (step 3)
    // vetoes a child whatever this head says, so only the children it lets through can be approved. Demanding
    // that no child at all clear the cut-off let the single highest-scoring of 2,208 children (not caught by the
    // guard) set the cut-off for every adult.
    const allKids = gated.filter((i) => ages[i]! < HARD_MIN_AGE);
    const kids = allKids.filter((i) => !guarded(i));
    let kidsAllowed = 0;
    while (clopperPearson(kidsAllowed + 1, allKids.length)[1] <= maxUpper / 2) kidsAllowed += 1;
    let c = chooseCutoff(
      hard.map((i) => oof.logits[head]![i]!),
      { maxUpper, guard: kids.map((i) => oof.logits[head]![i]!), guardMax: kidsAllowed },
    );
    if (Number.isFinite(c.cutoff) && floor > c.cutoff) {
      const approved = hard.filter((i) => oof.logits[head]![i]! >= floor).length;
      c = { cutoff: floor, approved, n: hard.length, upper: clopperPearson(approved, hard.length)[1] };
    }
    if (Number.isFinite(c.cutoff)) floor = c.cutoff;
    cuts.push({
      threshold: T,
      head,
      // A bound that no cut-off can meet (too few faces) approves nothing at this T by itself.
      cutoff: Number.isFinite(c.cutoff) ? r6(c.cutoff) : 1e9,
      target_far: maxUpper,
      hard_group: {
        min_age: HARD_MIN_AGE,
        max_age: T - 1,
        n: c.n,
        approved: c.approved,
        upper_95: r6(c.upper),
      },
    });
  }
  const at18 = cuts.filter((c) => c.threshold >= 18);
  const adults = gated.filter(
    (i) => ages[i]! >= 25 && !guarded(i) && at18.some((c) => oof.logits[head]![i]! >= c.cutoff),
  ).length;
  if (!bestHead || adults > bestHead.adults) bestHead = { head, cuts, adults };
}
cutoffs.push(...bestHead!.cuts);

// 4. Report OOF figures per source (with the guard, as production decides).
const approvedAt = (i: number, T: number, s: Scores = oof) => {
  const applicable = cutoffs.filter((c) => c.threshold >= T);
  return !guarded(i, s) && applicable.some((c) => s.logits[c.head]![i]! >= c.cutoff);
};
const summary = ageHeadSummary({ faces, ages, oof, thresholds: THRESHOLDS, guarded, approvedAt });
const bySource = Object.fromEntries(
  present.map((s) => [s, summary(all.filter((i) => faces[i]!.source === s))]),
);
const pooled = summary(all);
const oofAge = Float64Array.from(oof.age);
const residualSd = Math.sqrt(all.reduce((s, i) => s + (oofAge[i]! - ages[i]!) ** 2, 0) / n);
const rawSd = Math.sqrt(all.reduce((s, i) => s + (faces[i]!.rawAge - ages[i]!) ** 2, 0) / n);
const aucs = {
  adult_21_ge18: r3(
    auc(
      all.map((i) => oof.logits.adult_21![i]!),
      ages.map((a) => (a >= 18 ? 1 : 0)),
    ),
  ),
  adult_21_16_17_vs_18_24: (() => {
    const ix = all.filter((i) => ages[i]! >= 16 && ages[i]! < 25);
    return r3(
      auc(
        ix.map((i) => oof.logits.adult_21![i]!),
        ix.map((i) => (ages[i]! >= 18 ? 1 : 0)),
      ),
    );
  })(),
};

// 5. Leave one source out (optional): fitted on the other two, cut-offs as chosen above.
let losoReport: Record<string, unknown> | undefined;
if (loso && present.length > 1) {
  losoReport = {};
  for (const held of present) {
    const tl = performance.now();
    const s = emptyScores();
    const test = all.filter((i) => faces[i]!.source === held);
    score(fit(all.filter((i) => faces[i]!.source !== held)), test, s);
    losoReport[held] = summary(test, s);
    console.log(`leave out ${held}: ${((performance.now() - tl) / 1000).toFixed(0)} s`);
  }
}

// 6. Ship the average of the fold heads.
const avg = (pick: (m: Fitted) => { w: number[]; b: number }) => ({
  w: Array.from({ length: d }, (_, j) => r6(models.reduce((s, m) => s + pick(m).w[j]!, 0) / folds)),
  b: r6(models.reduce((s, m) => s + pick(m).b, 0) / folds),
});
const ridgeAvg = avg((m) => m.ridge);
const weights: AgeHeadWeights = {
  format: 'attestly-age-head/1',
  features: featureSet,
  seed: SEED,
  trained_on: `average of ${folds} cross-fitted heads on ${present
    .map((s) => `${s} (${counts[s]!.faces} faces)`)
    .join(', ')}; UTKFace and All-Age-Faces: research use only`,
  n,
  feature_mean: Array.from(mean, r6),
  feature_std: Array.from(std, r6),
  ridge: { ...ridgeAvg, residual_sd: r2(residualSd) },
  heads: Object.fromEntries([
    ...Object.entries(HEADS).map(([name, h]) => [name, { target: h.target, ...avg((m) => m.heads[name]!) }]),
    [CHILD_HEAD, { target: CHILD_AGE, ...avg((m) => m.heads[CHILD_HEAD]!) }],
  ]),
  cutoffs,
  child_guard: childGuard,
  frames: { min_usable: 2, min_agree_share: 2 / 3 },
  raw: { residual_sd: r2(rawSd) },
};
const report = {
  seed: SEED,
  folds,
  features: featureSet,
  dimensions: d,
  max_upper_95: maxUpper,
  method:
    'stratified (source x age bucket) cross-fitting over all sources; cut-offs on out-of-fold scores, pooled; ' +
    'hard group 13..T-1 upper 95 % Clopper-Pearson <= max_upper_95; children under 13 (after the child guard) <= max_upper_95 / 2; child guard',
  lambda: { ridge: RIDGE_LAMBDA, logistic: LOGISTIC_LAMBDA },
  network_weight: { ridge: ridgeNetworkWeight, logistic: logisticNetworkWeight },
  counts,
  cache_only: cacheOnly,
  cutoffs,
  child_guard: childGuard,
  residual_sd: r2(residualSd),
  auc: aucs,
  pooled,
  by_source: bySource,
  ...(losoReport ? { leave_one_source_out: losoReport } : {}),
  seconds: Math.round((performance.now() - t0) / 1000),
};
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, `${headFile}.json`), JSON.stringify(weights));
fs.writeFileSync(path.join(outDir, `${headFile}.cv.json`), `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify({ cutoffs, child_guard: childGuard, pooled_T18: pooled.T18, counts }, null, 2));
console.log(`wrote ${path.join(outDir, `${headFile}.json`)} and ${headFile}.cv.json`);
