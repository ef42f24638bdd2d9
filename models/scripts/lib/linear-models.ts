/**
 * Small, dependency-free linear models for the age head: ridge regression by conjugate gradients and L2
 * logistic regression by Nesterov-accelerated gradient descent. Rows are standardised feature vectors.
 */

export type Matrix = Float64Array[];

function matVec(X: Matrix, w: Float64Array, out: Float64Array): void {
  for (let i = 0; i < X.length; i++) {
    const x = X[i]!;
    let s = 0;
    for (let j = 0; j < w.length; j++) s += x[j]! * w[j]!;
    out[i] = s;
  }
}

function matTVec(X: Matrix, v: Float64Array, out: Float64Array): void {
  out.fill(0);
  for (let i = 0; i < X.length; i++) {
    const x = X[i]!;
    const vi = v[i]!;
    if (vi === 0) continue;
    for (let j = 0; j < out.length; j++) out[j]! += vi * x[j]!;
  }
}

/** Solves (XᵀX/n + λI) w = Xᵀ(y − ȳ)/n; the intercept is ȳ because X is centred. */
export function fitRidge(
  X: Matrix,
  y: number[],
  lambda: number,
  iterations = 200,
): { w: number[]; b: number } {
  const n = X.length;
  const d = X[0]!.length;
  const b = y.reduce((a, v) => a + v, 0) / n;
  const yc = Float64Array.from(y, (v) => v - b);
  const rhs = new Float64Array(d);
  matTVec(X, yc, rhs);
  for (let j = 0; j < d; j++) rhs[j]! /= n;
  const tmpN = new Float64Array(n);
  const apply = (p: Float64Array, out: Float64Array) => {
    matVec(X, p, tmpN);
    matTVec(X, tmpN, out);
    for (let j = 0; j < d; j++) out[j] = out[j]! / n + lambda * p[j]!;
  };
  const w = new Float64Array(d);
  const r = Float64Array.from(rhs);
  const p = Float64Array.from(r);
  const Ap = new Float64Array(d);
  let rr = r.reduce((a, v) => a + v * v, 0);
  for (let k = 0; k < iterations && rr > 1e-12; k++) {
    apply(p, Ap);
    let pAp = 0;
    for (let j = 0; j < d; j++) pAp += p[j]! * Ap[j]!;
    const alpha = rr / pAp;
    for (let j = 0; j < d; j++) {
      w[j]! += alpha * p[j]!;
      r[j]! -= alpha * Ap[j]!;
    }
    const rrNew = r.reduce((a, v) => a + v * v, 0);
    const beta = rrNew / rr;
    for (let j = 0; j < d; j++) p[j] = r[j]! + beta * p[j]!;
    rr = rrNew;
  }
  return { w: Array.from(w), b };
}

/** Minimises mean log-loss + λ/2‖w‖². */
export function fitLogistic(
  X: Matrix,
  y: number[],
  lambda: number,
  iterations = 300,
): { w: number[]; b: number } {
  const n = X.length;
  const d = X[0]!.length;
  // Step 1/L with L bounded by the largest eigenvalue of XᵀX/(4n) (power iteration) plus λ.
  let v = new Float64Array(d).fill(1 / Math.sqrt(d));
  const tmpN = new Float64Array(n);
  const tmpD = new Float64Array(d);
  let eig = 1;
  for (let k = 0; k < 30; k++) {
    matVec(X, v, tmpN);
    matTVec(X, tmpN, tmpD);
    const norm = Math.sqrt(tmpD.reduce((a, q) => a + q * q, 0));
    eig = norm / n;
    v = Float64Array.from(tmpD, (q) => q / norm);
  }
  const step = 1 / (eig / 4 + 0.25 + lambda);
  let w = new Float64Array(d);
  let b = 0;
  let wPrev = new Float64Array(d);
  let bPrev = 0;
  const z = new Float64Array(n);
  const grad = new Float64Array(d);
  for (let k = 1; k <= iterations; k++) {
    const mom = (k - 1) / (k + 2);
    const yw = Float64Array.from(w, (q, j) => q + mom * (q - wPrev[j]!));
    const yb = b + mom * (b - bPrev);
    matVec(X, yw, z);
    let gb = 0;
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-(z[i]! + yb)));
      z[i] = (p - y[i]!) / n;
      gb += z[i]!;
    }
    matTVec(X, z, grad);
    wPrev = w;
    bPrev = b;
    w = Float64Array.from(yw, (q, j) => q - step * (grad[j]! + lambda * q));
    b = yb - step * gb;
  }
  return { w: Array.from(w), b };
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fold index per row, stratified by a label so each fold sees every age band. */
export function stratifiedFolds(strata: string[], k: number, rand: () => number): number[] {
  const byStratum = new Map<string, number[]>();
  strata.forEach((s, i) => byStratum.set(s, [...(byStratum.get(s) ?? []), i]));
  const folds = new Array<number>(strata.length).fill(0);
  let offset = 0;
  for (const idx of byStratum.values()) {
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [idx[i], idx[j]] = [idx[j]!, idx[i]!];
    }
    idx.forEach((row, i) => (folds[row] = (i + offset) % k));
    offset += idx.length;
  }
  return folds;
}

export function auc(scores: number[], labels: number[]): number {
  const pairs = scores.map((s, i) => [s, labels[i]!] as const).sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  let pos = 0;
  for (let i = 0; i < pairs.length;) {
    let j = i;
    while (j < pairs.length && pairs[j]![0] === pairs[i]![0]) j++;
    const rank = (i + j + 1) / 2;
    for (let k = i; k < j; k++)
      if (pairs[k]![1] === 1) {
        rankSum += rank;
        pos++;
      }
    i = j;
  }
  const neg = pairs.length - pos;
  return pos && neg ? (rankSum - (pos * (pos + 1)) / 2) / (pos * neg) : NaN;
}
