/**
 * Statistics for choosing and reporting the age gate's cut-offs (MODEL_CARD.md "How the cut-offs are chosen").
 * Dependency-free so the training script, the evaluation script and the tests share one implementation.
 */

/** log(n choose k) through log-gamma (Lanczos, g = 7): exact to ~1e-13 relative for the sizes used here. */
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

function logChoose(n: number, k: number): number {
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
}

/** P(X ≤ k) for X ~ Binomial(n, p). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  let sum = 0;
  for (let i = 0; i <= k; i++) sum += Math.exp(logChoose(n, i) + i * lp + (n - i) * lq);
  return Math.min(1, sum);
}

function bisect(f: (p: number) => number, target: number, decreasing: boolean): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    const v = f(mid);
    if (decreasing ? v > target : v < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Clopper–Pearson ("exact") two-sided interval for a binomial proportion k / n at the given confidence: each
 * tail holds (1 − confidence) / 2, so the upper limit of the 95 % interval is a one-sided 97.5 % bound.
 */
export function clopperPearson(k: number, n: number, confidence = 0.95): [number, number] {
  if (n <= 0) return [0, 1];
  const alpha = 1 - confidence;
  const lower = k === 0 ? 0 : bisect((p) => 1 - binomialCdf(k - 1, n, p), alpha / 2, false);
  const upper = k === n ? 1 : bisect((p) => binomialCdf(k, n, p), alpha / 2, true);
  return [lower, upper];
}

export interface RateWithInterval {
  n: number;
  approved: number;
  rate: number | null;
  /** Clopper–Pearson 95 % interval [low, high]; null when the group is empty. */
  ci95: [number, number] | null;
}

export function rateWithInterval(approved: number, n: number): RateWithInterval {
  const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
  if (n === 0) return { n, approved, rate: null, ci95: null };
  const [lo, hi] = clopperPearson(approved, n);
  return { n, approved, rate: r6(approved / n), ci95: [r6(lo), r6(hi)] };
}

export interface CutoffChoice {
  /** Scores at or above this are approved. */
  cutoff: number;
  /** Hard-group faces (on data the head was not fitted on) at or above the cut-off, and their count. */
  approved: number;
  n: number;
  /** Upper limit of the 95 % Clopper–Pearson interval of the hard group's approval rate at the cut-off. */
  upper: number;
}

/**
 * The lowest cut-off whose hard-group approval rate has a 95 % Clopper–Pearson upper limit ≤ `maxUpper`.
 * `hard` are scores of under-T faces the head was not fitted on. `guard` (optional) are scores of a group that
 * must stay at or below `guardMax` approvals (children: none), which can only raise the cut-off.
 * Approval is `score ≥ cutoff`; the cut-off sits just above a hard-group score, so ties are never approved.
 */
export function chooseCutoff(
  hard: readonly number[],
  options: { maxUpper: number; confidence?: number; guard?: readonly number[]; guardMax?: number },
): CutoffChoice {
  const n = hard.length;
  if (!n) throw new Error('chooseCutoff needs hard-group scores');
  const sorted = [...hard].sort((a, b) => b - a);
  // Largest k (approvals allowed) whose bound holds: the bound grows with k, so scan up from 0.
  let k = -1;
  while (k + 1 < n && clopperPearson(k + 1, n, options.confidence ?? 0.95)[1] <= options.maxUpper) k++;
  if (k < 0) {
    // Even zero approvals cannot show the bound with this few faces: approve nothing.
    return { cutoff: Number.POSITIVE_INFINITY, approved: 0, n, upper: clopperPearson(0, n)[1] };
  }
  // Approve at most k: the cut-off sits strictly above the (k+1)-th highest score.
  let cutoff = nextAbove(sorted[k]!);
  if (options.guard?.length) {
    const g = [...options.guard].sort((a, b) => b - a);
    const allowed = options.guardMax ?? 0;
    if (g.length > allowed) cutoff = Math.max(cutoff, nextAbove(g[allowed]!));
  }
  const approved = sorted.filter((s) => s >= cutoff).length;
  return { cutoff, approved, n, upper: clopperPearson(approved, n, options.confidence ?? 0.95)[1] };
}

function nextAbove(v: number): number {
  return v + Math.max(1e-6, Math.abs(v) * 1e-9);
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  if (!values.length) throw new Error('median of nothing');
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
