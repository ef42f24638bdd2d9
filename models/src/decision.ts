import { applyAgeHead, type AgeHeadInput, type AgeHeadWeights } from './age-head';
import { median } from './calibration';
import type { AgeRange, ThresholdDecision } from './types';

export interface DecisionConfig {
  /**
   * 'head': the trained head with cut-offs calibrated on faces the head was not fitted on (default).
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
  /** The child guard fired: no threshold is approved. */
  child_guard: boolean;
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** Video defaults when the weights carry none: at least 2 usable frames, and 2 in 3 must clear on their own. */
export const defaultFrameRule = { min_usable: 2, min_agree_share: 2 / 3 };

/**
 * Decides each requested threshold from one or more observations of the same face (a photo gives one; a video
 * gives its best usable frames). With the trained head:
 * - each frame is scored on its own and the decision is on the **median** score over the frames (robust to one
 *   odd frame); with several frames, at least `frames.min_usable` must be usable and at least
 *   `frames.min_agree_share` of them must clear the cut-off on their own — frames that disagree approve nothing;
 * - the **child guard** vetoes every threshold when any frame looks like a child (child-head logit at or above its
 *   cut-off, or an estimated age below the guard's minimum), whatever the adult heads say;
 * - a threshold is approved only when its score clears the cut-off calibrated for it (MODEL_CARD.md); a threshold
 *   without a calibrated cut-off at or above it is never approved — the person is sent to the document route.
 */
export function decideAge(
  observations: readonly AgeHeadInput[],
  thresholds: readonly number[],
  weights: AgeHeadWeights | null,
  config: DecisionConfig = defaultDecisionConfig,
): AgeDecision {
  if (!observations.length) throw new Error('decideAge needs at least one observation');
  const rawAge = median(observations.map((o) => o.modelAge));
  const useHead = config.mode === 'head' && weights !== null;
  const sorted = [...new Set(thresholds)].sort((a, b) => a - b);
  let age: number;
  let sd: number;
  let decisions: ThresholdDecision[];
  let childGuard = false;
  if (useHead) {
    const outputs = observations.map((o) => applyAgeHead(weights, o));
    const ages = outputs.map((o) => o.age);
    age = Math.min(100, Math.max(1, median(ages)));
    // Several frames narrow frame-to-frame noise but not the model's own error, so the range keeps the
    // single-image residual spread.
    sd = weights.ridge.residual_sd;
    const guard = weights.child_guard;
    childGuard =
      !!guard &&
      outputs.some(
        (o) =>
          (o.logits[guard.head] ?? Number.POSITIVE_INFINITY) >= guard.cutoff ||
          o.age < guard.min_age_estimate,
      );
    const frameRule = weights.frames ?? defaultFrameRule;
    const multi = observations.length > 1;
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
      const scored = applicable.map((c) => {
        const perFrame = outputs.map((o) => o.logits[c.head] ?? Number.NEGATIVE_INFINITY);
        const score = median(perFrame);
        const agreeing = perFrame.filter((v) => v >= c.cutoff).length;
        const agree =
          !multi ||
          (perFrame.length >= frameRule.min_usable &&
            agreeing >= Math.ceil(frameRule.min_agree_share * perFrame.length - 1e-9));
        return { c, score, clears: score >= c.cutoff, agree };
      });
      const clearing = scored.find((s) => s.clears && s.agree);
      const shown = clearing ?? scored.find((s) => s.clears) ?? scored[0]!;
      const reason: ThresholdDecision['reason'] = childGuard
        ? 'child_guard'
        : clearing
          ? 'approved'
          : shown.clears
            ? 'frames_disagree'
            : 'below_cutoff';
      return {
        threshold,
        approved: reason === 'approved',
        score: round3(shown.score),
        cutoff: round3(shown.c.cutoff),
        reason,
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
    child_guard: childGuard,
  };
}

function round3(v: number): number {
  return Number.isFinite(v) ? Math.round(v * 1000) / 1000 : v;
}
