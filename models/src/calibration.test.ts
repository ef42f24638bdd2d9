import { describe, expect, it } from 'vitest';
import { binomialCdf, chooseCutoff, clopperPearson, median, rateWithInterval } from './calibration';

/** Seeded uniform → standard normal (Box–Muller), so the synthetic populations are reproducible. */
function normals(seed: number, count: number): number[] {
  let a = seed >>> 0;
  const u = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  return Array.from({ length: count }, () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u()));
}
/** Standard normal upper tail, P(Z ≥ z) (Abramowitz–Stegun 7.1.26 on erfc; |error| < 1.5e-7). */
function normalTail(z: number): number {
  const x = z / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const erfc =
    t *
    (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) *
    Math.exp(-x * x);
  return x >= 0 ? erfc / 2 : 1 - erfc / 2;
}

describe('Clopper–Pearson interval', () => {
  it('matches published exact limits', () => {
    // 0 of 100: upper = 1 − 0.025^(1/100) = 0.03622; 2 of 200 → [0.00121, 0.03567]; 10 of 50 → [0.1003, 0.3372].
    expect(clopperPearson(0, 100)[1]).toBeCloseTo(1 - 0.025 ** (1 / 100), 6);
    const [lo, hi] = clopperPearson(2, 200);
    expect(lo).toBeCloseTo(0.00121, 4);
    expect(hi).toBeCloseTo(0.03567, 4);
    const [lo2, hi2] = clopperPearson(10, 50);
    expect(lo2).toBeCloseTo(0.1003, 3);
    expect(hi2).toBeCloseTo(0.3372, 3);
    expect(clopperPearson(5, 5)[1]).toBe(1);
  });

  it('puts 2.5 % of the binomial mass beyond each limit', () => {
    const [lo, hi] = clopperPearson(7, 400);
    expect(binomialCdf(7, 400, hi)).toBeCloseTo(0.025, 6);
    expect(1 - binomialCdf(6, 400, lo)).toBeCloseTo(0.025, 6);
  });

  it('reports a rate with its interval, and nothing for an empty group', () => {
    expect(rateWithInterval(3, 300)).toMatchObject({ n: 300, approved: 3, rate: 0.01 });
    expect(rateWithInterval(0, 0)).toEqual({ n: 0, approved: 0, rate: null, ci95: null });
  });
});

describe('chooseCutoff on a synthetic score distribution with a known tail', () => {
  // Under-T scores ~ N(0, 1): the true approval rate of a cut-off c is P(Z ≥ c), known exactly.
  const hard = normals(7, 3000);

  it('chooses a cut-off whose 95 % upper bound holds, and whose true rate is under the target', () => {
    const c = chooseCutoff(hard, { maxUpper: 0.01 });
    expect(c.n).toBe(3000);
    expect(c.upper).toBeLessThanOrEqual(0.01);
    expect(c.approved).toBe(hard.filter((s) => s >= c.cutoff).length);
    expect(clopperPearson(c.approved, c.n)[1]).toBeCloseTo(c.upper, 9);
    // The true rate at the chosen cut-off is below the 1 % bound (z(1 %) = 2.326).
    expect(normalTail(c.cutoff)).toBeLessThan(0.01);
    expect(c.cutoff).toBeGreaterThan(2.326);
    // It is the lowest such cut-off: one more approval would break the bound.
    expect(clopperPearson(c.approved + 1, c.n)[1]).toBeGreaterThan(0.01);
  });

  it('holds the true rate under the bound across many independent samples (coverage)', () => {
    let violations = 0;
    const trials = 200;
    for (let s = 0; s < trials; s++) {
      const c = chooseCutoff(normals(1000 + s, 1500), { maxUpper: 0.01 });
      if (normalTail(c.cutoff) > 0.01) violations++;
    }
    // The bound is a 97.5 % one-sided limit: the true rate exceeds 1 % in at most ~2.5 % of samples.
    expect(violations / trials).toBeLessThanOrEqual(0.05);
  });

  it('approves nothing when too few faces can show the bound', () => {
    // With 300 faces even zero approvals leaves an upper limit of 1.22 % > 1 %.
    const c = chooseCutoff(normals(3, 300), { maxUpper: 0.01 });
    expect(c.cutoff).toBe(Number.POSITIVE_INFINITY);
    expect(c.approved).toBe(0);
    expect(c.upper).toBeGreaterThan(0.01);
  });

  it('raises the cut-off above every guarded child score', () => {
    const kids = [...normals(11, 500).map((z) => z - 2), 4.2];
    const c = chooseCutoff(hard, { maxUpper: 0.01, guard: kids, guardMax: 0 });
    expect(c.cutoff).toBeGreaterThan(4.2);
    expect(kids.filter((k) => k >= c.cutoff)).toHaveLength(0);
  });
});

describe('median', () => {
  it('is the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
  });
});
