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

  it('averages several frames before deciding', () => {
    expect(decideAge([face(3.5), face(0.5)], [21], weights).approved_thresholds).toEqual([]);
    expect(decideAge([face(3.5), face(2.5)], [21], weights).approved_thresholds).toEqual([21]);
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
