import { applyAgeHead, type AgeHeadWeights } from './age-head';
import type { AgeRange, FaceObservation, ThresholdDecision } from './types';

export interface DecisionConfig {
  /**
   * 'head': the trained head with cut-offs calibrated on faces-dev (default).
   * 'raw': Human's own age must clear T + buffer (the "challenge 25" rule of DESIGN.md §5).
   */
  mode: 'head' | 'raw';
  /** Years added to T in raw mode. */
  buffer: number;
}

export const defaultDecisionConfig: DecisionConfig = { mode: 'head', buffer: 7 };

/** 90 % two-sided normal interval, used for the age range around the point estimate. */
const Z90 = 1.645;
const RAW_FALLBACK_SD = 8;

export interface AgeDecision {
  age: number;
  age_range: AgeRange;
  threshold_decisions: ThresholdDecision[];
  approved_thresholds: number[];
  decision_mode: 'head' | 'raw';
}

const round1 = (v: number) => Math.round(v * 10) / 10;
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);

/**
 * Decides each requested threshold from one or more observations of the same face (several video frames are
 * averaged, which shrinks frame noise). A threshold is approved only when its score clears the cut-off chosen
 * on faces-dev for at most ~0.5–1 % of under-T faces; a threshold without a calibrated cut-off is never
 * approved here — the person is sent to the document route instead.
 */
export function decideAge(
  observations: readonly Pick<FaceObservation, 'descriptor' | 'modelAge'>[],
  thresholds: readonly number[],
  weights: AgeHeadWeights | null,
  config: DecisionConfig = defaultDecisionConfig,
): AgeDecision {
  if (!observations.length) throw new Error('decideAge needs at least one observation');
  const rawAge = mean(observations.map((o) => o.modelAge));
  const useHead = config.mode === 'head' && weights !== null;
  const sorted = [...new Set(thresholds)].sort((a, b) => a - b);
  let age: number;
  let sd: number;
  let decisions: ThresholdDecision[];
  if (useHead) {
    const outputs = observations.map((o) => applyAgeHead(weights, o));
    age = Math.min(100, Math.max(1, mean(outputs.map((o) => o.age))));
    // Averaging k frames narrows frame-to-frame noise but not the model's own error, so the range keeps
    // the single-image residual spread.
    sd = weights.ridge.residual_sd;
    const cutoffs = [...weights.cutoffs].sort((a, b) => a.threshold - b.threshold);
    decisions = sorted.map((threshold) => {
      // Every calibrated cut-off at or above T is conservative for T (clearing "18" implies "16"), so T is
      // approved when any of them is cleared; the nearest one is reported.
      const applicable = cutoffs.filter((c) => c.threshold >= threshold);
      if (!applicable.length) {
        return {
          threshold,
          approved: false,
          score: 0,
          cutoff: Number.POSITIVE_INFINITY,
          reason: 'not_calibrated',
        } as ThresholdDecision;
      }
      const scored = applicable.map((c) => ({
        c,
        score: mean(outputs.map((o) => o.logits[c.head] ?? Number.NEGATIVE_INFINITY)),
      }));
      const clearing = scored.find((s) => s.score >= s.c.cutoff);
      const shown = clearing ?? scored[0]!;
      return {
        threshold,
        approved: !!clearing,
        score: round3(shown.score),
        cutoff: round3(shown.c.cutoff),
        reason: clearing ? 'approved' : 'below_cutoff',
      } as ThresholdDecision;
    });
  } else {
    age = rawAge;
    sd = weights?.raw.residual_sd ?? RAW_FALLBACK_SD;
    decisions = sorted.map((threshold) => {
      const cutoff = threshold + config.buffer;
      const approved = rawAge >= cutoff;
      return {
        threshold,
        approved,
        score: round1(rawAge),
        cutoff,
        reason: approved ? 'approved' : 'below_cutoff',
      };
    });
  }
  return {
    age: round1(age),
    age_range: { min: Math.max(0, Math.floor(age - Z90 * sd)), max: Math.ceil(age + Z90 * sd) },
    threshold_decisions: decisions,
    approved_thresholds: decisions.filter((d) => d.approved).map((d) => d.threshold),
    decision_mode: useHead ? 'head' : 'raw',
  };
}

function round3(v: number): number {
  return Number.isFinite(v) ? Math.round(v * 1000) / 1000 : v;
}
