import { describe, expect, it } from 'vitest';
import type { AgeHeadWeights } from './age-head';
import { decideAge } from './decision';

// A 2-feature toy head: feature 0 of the descriptor drives everything, feature 1 is Human's age.
const weights: AgeHeadWeights = {
  format: 'attestly-age-head/1',
  features: 'faceres-descriptor-1024+faceres-age',
  seed: 1,
  trained_on: 'test',
  n: 10,
  feature_mean: [0, 0],
  feature_std: [1, 1],
  ridge: { w: [10, 0], b: 20, residual_sd: 5 },
  heads: { adult_21: { target: 21, w: [1, 0], b: 0 }, adult_25: { target: 25, w: [1, 0], b: -1 } },
  cutoffs: [
    { threshold: 16, head: 'adult_21', cutoff: 0.5, target_far: 0.005 },
    { threshold: 18, head: 'adult_25', cutoff: 1, target_far: 0.005 },
    { threshold: 21, head: 'adult_25', cutoff: 2, target_far: 0.005 },
  ],
  raw: { residual_sd: 8 },
};
const face = (x: number, modelAge = 30) => ({ descriptor: [x], modelAge });

describe('decideAge with the trained head', () => {
  it('approves a threshold only when its calibrated cut-off is cleared', () => {
    const d = decideAge([face(2.5)], [18, 21], weights);
    expect(d.approved_thresholds).toEqual([18]);
    expect(d.threshold_decisions[1]).toMatchObject({
      threshold: 21,
      approved: false,
      reason: 'below_cutoff',
      cutoff: 2,
    });
    expect(d.age).toBe(45);
    expect(d.decision_mode).toBe('head');
  });

  it('gives a 90 % age range from the residual spread', () => {
    const d = decideAge([face(0)], [18], weights);
    expect(d.age_range).toEqual({ min: Math.floor(20 - 1.645 * 5), max: Math.ceil(20 + 1.645 * 5) });
  });

  it('approves lower thresholds whenever a higher calibrated one is cleared', () => {
    // adult_21 logit 3.5 clears 16; adult_25 logit 2.5 clears 18 and 21 — and 12 falls back on those.
    expect(decideAge([face(3.5)], [12, 16, 18, 21], weights).approved_thresholds).toEqual([12, 16, 18, 21]);
  });

  it('never approves a threshold with no calibrated cut-off at or above it', () => {
    const d = decideAge([face(100)], [25], weights);
    expect(d.approved_thresholds).toEqual([]);
    expect(d.threshold_decisions[0]!.reason).toBe('not_calibrated');
  });

  it('decides a video on the median frame score and needs the frames to agree', () => {
    // adult_25 logit = x − 1; T=21 needs ≥ 2.
    const three = decideAge([face(3.5), face(3.2), face(0.5)], [21], weights);
    expect(three.approved_thresholds).toEqual([21]);
    expect(three.threshold_decisions[0]!.score).toBe(2.2);
    // One extreme frame cannot carry the others: a mean would clear (logits 9, 0.5, 0.6), the median does not.
    const outlier = decideAge([face(10), face(1.5), face(1.6)], [21], weights);
    expect(outlier.approved_thresholds).toEqual([]);
    expect(outlier.threshold_decisions[0]!.reason).toBe('below_cutoff');
    // Four frames: the median (2.0) clears, but only 2 of 4 frames do on their own — below the 2/3 rule.
    const split = decideAge([face(3.5), face(3.5), face(2.5), face(2.0)], [21], weights);
    expect(split.threshold_decisions[0]).toMatchObject({ approved: false, reason: 'frames_disagree' });
    // A lone usable frame of a video is not enough when the rule asks for two.
    const strict = { ...weights, frames: { min_usable: 2, min_agree_share: 1 } };
    expect(decideAge([face(3.5), face(3.5)], [21], strict).approved_thresholds).toEqual([21]);
    expect(decideAge([face(3.5), face(3.5), face(2.9)], [21], strict).approved_thresholds).toEqual([]);
  });
});

describe('the child guard', () => {
  // child_13 logit = −x: a low feature looks like a child. Ridge age = 10x + 20.
  const guarded: AgeHeadWeights = {
    ...weights,
    heads: { ...weights.heads, child_13: { target: 13, w: [-1, 0], b: 0 } },
    child_guard: { head: 'child_13', cutoff: 0, min_age_estimate: 14 },
  };

  it('vetoes every threshold when the child head fires, whatever the adult heads say', () => {
    // A face the adult heads would approve at every T (x = 3.5), with the child head pointed at it.
    const fooled: AgeHeadWeights = {
      ...guarded,
      heads: { ...guarded.heads, child_13: { target: 13, w: [1, 0], b: 0 } },
    };
    const d = decideAge([face(3.5)], [16, 18, 21], fooled);
    expect(d.approved_thresholds).toEqual([]);
    expect(d.child_guard).toBe(true);
    expect(d.threshold_decisions.every((t) => t.reason === 'child_guard')).toBe(true);
    expect(decideAge([face(3.5)], [16, 18, 21], guarded).approved_thresholds).toEqual([16, 18, 21]);
  });

  it('vetoes when the estimated age is under the guard minimum', () => {
    // Ridge age 10x + 20 < 14 for x = −0.7; make the adult head approve anyway.
    const odd: AgeHeadWeights = {
      ...guarded,
      heads: { ...guarded.heads, adult_25: { target: 25, w: [-10, 0], b: 0 } },
      child_guard: { head: 'child_13', cutoff: 100, min_age_estimate: 14 },
    };
    const d = decideAge([face(-0.7)], [18], odd);
    expect(d.threshold_decisions[0]).toMatchObject({ approved: false, reason: 'child_guard' });
  });

  it('vetoes a video when any one frame looks like a child', () => {
    const fooled: AgeHeadWeights = {
      ...guarded,
      heads: { ...guarded.heads, child_13: { target: 13, w: [0, 1], b: -20 } },
    };
    // Here the child logit is modelAge − 20: only the third frame (25) fires, and that alone vetoes.
    const frames = [face(3.5, 15), face(3.5, 15), face(3.5, 25)];
    expect(decideAge(frames, [18], fooled).approved_thresholds).toEqual([]);
    expect(decideAge([face(3.5, 15), face(3.5, 15)], [18], fooled).approved_thresholds).toEqual([18]);
  });
});

describe('decideAge with the raw rule', () => {
  it('needs Human age ≥ T + buffer', () => {
    const d = decideAge([face(0, 26)], [18, 21], weights, { mode: 'raw', buffer: 7 });
    expect(d.approved_thresholds).toEqual([18]);
    expect(d.decision_mode).toBe('raw');
    expect(d.age).toBe(26);
  });

  it('is used when no head weights are available', () => {
    expect(decideAge([face(0, 40)], [21], null).decision_mode).toBe('raw');
  });
});
