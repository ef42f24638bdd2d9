import type { FaceObservation } from './types';

/** A logistic classifier "age ≥ target" over the standardised features. */
export interface LogisticHead {
  target: number;
  w: number[];
  b: number;
}

export interface CalibratedCutoff {
  /** The age threshold T this cut-off decides. */
  threshold: number;
  head: string;
  /** Logit cut-off chosen on out-of-fold faces-dev scores (see scripts/train-age-head.ts). */
  cutoff: number;
  /** Largest share of under-T faces the cut-off was chosen to approve. */
  target_far: number;
}

/** Committed as models/weights/age-head.json; produced by `npm run train:age-head`. */
export interface AgeHeadWeights {
  format: 'attestly-age-head/1';
  features: 'faceres-descriptor-1024+faceres-age';
  seed: number;
  trained_on: string;
  n: number;
  feature_mean: number[];
  feature_std: number[];
  ridge: { w: number[]; b: number; residual_sd: number };
  heads: Record<string, LogisticHead>;
  cutoffs: CalibratedCutoff[];
  /** Spread of Human's raw age error on the same data, for the raw rule's age range. */
  raw: { residual_sd: number };
}

export function featureVector(obs: Pick<FaceObservation, 'descriptor' | 'modelAge'>): number[] {
  return [...obs.descriptor, obs.modelAge];
}

export function standardise(
  x: readonly number[],
  mean: readonly number[],
  std: readonly number[],
): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = (x[i]! - mean[i]!) / (std[i]! || 1);
  return out;
}

export function dot(w: readonly number[] | Float64Array, x: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += w[i]! * x[i]!;
  return s;
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

export interface HeadOutputs {
  age: number;
  /** Logit per head name. */
  logits: Record<string, number>;
}

export function applyAgeHead(
  weights: AgeHeadWeights,
  obs: Pick<FaceObservation, 'descriptor' | 'modelAge'>,
): HeadOutputs {
  const x = standardise(featureVector(obs), weights.feature_mean, weights.feature_std);
  const logits: Record<string, number> = {};
  for (const [name, head] of Object.entries(weights.heads)) logits[name] = dot(head.w, x) + head.b;
  return { age: dot(weights.ridge.w, x) + weights.ridge.b, logits };
}
