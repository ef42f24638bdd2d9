import { ageCnnFeatures, type AgeNetworkId } from './age-cnn';
import { AGE_FEATURE_SIZE } from './faceres-features';
import type { FaceObservation } from './types';

/**
 * What a head reads, per face:
 * - 'faceres-descriptor-1024+faceres-age' (the first heads): the descriptor and faceres's age, 1,025 values;
 * - 'faceres-blocks-9-11+softmax+descriptor+age' (issue 22, research R2): the intermediate activations and age
 *   softmax of the same faceres pass (faceres-features.ts, 3,172 values), then the descriptor and age, 4,197 values;
 * - 'faceres-age-cnn-ab' (issue 22, R1, shipped): the age networks fine-tuned from faceres (age-cnn.ts), their
 *   mean age distribution read as its expected age and the log-odds of "age ≥ 13, 16, 18, 21, 25", 6 values;
 * - 'faceres-descriptor-1024+faceres-age+age-cnn-ab' (issue 22): the first set (the descriptor and faceres's age),
 *   then the six values of both networks' mean on the crop alone (no mirror), 1,031 values;
 * - 'faceres-descriptor-1024+faceres-age+age-cnn-a' (issue 22, ATTESTLY_AGE_MODEL=combined): the same with network
 *   a alone, at half the networks' cost per face.
 */
export type AgeFeatureSet =
  | 'faceres-descriptor-1024+faceres-age'
  | 'faceres-blocks-9-11+softmax+descriptor+age'
  | 'faceres-age-cnn-ab'
  | 'faceres-descriptor-1024+faceres-age+age-cnn-ab'
  | 'faceres-descriptor-1024+faceres-age+age-cnn-a';

export interface AgeModelsRead {
  /** The age networks the head reads, averaged; none for a head on faceres alone. */
  ageNetworks: readonly AgeNetworkId[];
  ageNetworksMirror: boolean;
  ageReadsFaceres: boolean;
}

/** The age networks each feature set reads; the others read none. */
const AGE_NETWORKS: Partial<Record<AgeFeatureSet, readonly AgeNetworkId[]>> = {
  'faceres-age-cnn-ab': ['a', 'b'],
  'faceres-descriptor-1024+faceres-age+age-cnn-ab': ['a', 'b'],
  'faceres-descriptor-1024+faceres-age+age-cnn-a': ['a'],
};

/**
 * The networks a head's features need: the age networks (and whether they read the crop's mirror image too), and
 * faceres for the age, not only for identity. The head on the networks alone reads the mirror; the head that also
 * reads faceres was trained on the crop alone (the mirror added nothing to it, MODEL_CARD.md).
 */
export function ageModelsRead(
  features: AgeFeatureSet = 'faceres-descriptor-1024+faceres-age',
): AgeModelsRead {
  return {
    ageNetworks: AGE_NETWORKS[features] ?? [],
    ageNetworksMirror: features === 'faceres-age-cnn-ab',
    ageReadsFaceres: features !== 'faceres-age-cnn-ab',
  };
}

export type AgeHeadInput = Pick<FaceObservation, 'modelAge'> &
  Partial<Pick<FaceObservation, 'descriptor' | 'ageFeatures' | 'ageDistribution' | 'faceresAge'>>;

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
  /** Largest share of under-T faces the cut-off was chosen to approve (the bound on it, in calibration 2). */
  target_far: number;
  /** Calibration 2: the group whose 95 % Clopper–Pearson upper bound was held to `target_far`, e.g. ages 13–17. */
  hard_group?: { min_age: number; max_age: number; n: number; approved: number; upper_95: number };
}

/**
 * The explicit child guard: a face whose child-head logit is at or above `cutoff`, or whose estimated age is
 * below `min_age_estimate`, is never approved, whatever the adult heads say.
 */
export interface ChildGuard {
  head: string;
  cutoff: number;
  min_age_estimate: number;
}

/** Committed as models/weights/age-head*.json (vision-engine.ts `ageHeads`); produced by `npm run train:age-head`. */
export interface AgeHeadWeights {
  format: 'attestly-age-head/1';
  features: AgeFeatureSet;
  seed: number;
  trained_on: string;
  n: number;
  feature_mean: number[];
  feature_std: number[];
  ridge: { w: number[]; b: number; residual_sd: number };
  heads: Record<string, LogisticHead>;
  cutoffs: CalibratedCutoff[];
  child_guard?: ChildGuard;
  /**
   * Video: how many usable frames must show and what share of them must clear the cut-off on their own (the
   * decision itself is on the median score over usable frames).
   */
  frames?: { min_usable: number; min_agree_share: number };
  /** Spread of Human's raw age error on the same data, for the raw rule's age range. */
  raw: { residual_sd: number };
}

export function featureVector(
  obs: AgeHeadInput,
  features: AgeFeatureSet = 'faceres-descriptor-1024+faceres-age',
): number[] {
  if (features === 'faceres-age-cnn-ab') {
    if (!obs.ageDistribution)
      throw new Error('the age head reads the age networks, the observation has none');
    return ageCnnFeatures(obs.ageDistribution);
  }
  if (!obs.descriptor?.length)
    throw new Error('the age head reads the faceres descriptor, the observation has none');
  if (features === 'faceres-descriptor-1024+faceres-age') return [...obs.descriptor, obs.modelAge];
  if (ageModelsRead(features).ageNetworks.length) {
    if (!obs.ageDistribution || obs.faceresAge === undefined)
      throw new Error('the age head reads faceres and the age networks, the observation lacks one of them');
    return [...obs.descriptor, obs.faceresAge, ...ageCnnFeatures(obs.ageDistribution)];
  }
  if (obs.ageFeatures?.length !== AGE_FEATURE_SIZE) {
    throw new Error(
      `the age head reads ${AGE_FEATURE_SIZE} faceres age features, the observation has ${obs.ageFeatures?.length ?? 0}`,
    );
  }
  return [...obs.ageFeatures, ...obs.descriptor, obs.modelAge];
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

export function applyAgeHead(weights: AgeHeadWeights, obs: AgeHeadInput): HeadOutputs {
  const x = standardise(featureVector(obs, weights.features), weights.feature_mean, weights.feature_std);
  if (x.length !== weights.feature_mean.length) {
    throw new Error(`age head expects ${weights.feature_mean.length} features, got ${x.length}`);
  }
  const logits: Record<string, number> = {};
  for (const [name, head] of Object.entries(weights.heads)) logits[name] = dot(head.w, x) + head.b;
  return { age: dot(weights.ridge.w, x) + weights.ridge.b, logits };
}
