import type { Point } from './track-features';

/**
 * 2-D warp fits for the parallax check (parallax.ts): how well a whole-image affine map, a plane homography or one
 * affine map per face half explains one frame's landmarks as a warp of another's.
 */

// Small least-squares helpers (normal equations with partial pivoting; the systems are at most 8 × 8).

function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    if (Math.abs(m[p]![c]!) < 1e-12) return null;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

function leastSquares(rows: number[][], rhs: number[]): number[] | null {
  const k = rows[0]!.length;
  const ata = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const atb = new Array<number>(k).fill(0);
  rows.forEach((r, i) => {
    for (let a = 0; a < k; a++) {
      atb[a]! += r[a]! * rhs[i]!;
      for (let b = 0; b < k; b++) ata[a]![b]! += r[a]! * r[b]!;
    }
  });
  // A whisper of ridge keeps near-degenerate point sets (all points on a line) solvable.
  for (let a = 0; a < k; a++) ata[a]![a]! += 1e-9;
  return solve(ata, atb);
}

/** Sum of squared residuals of the best 2-D affine map from `src` to `dst` (null when it cannot be fitted). */
function affineSse(src: readonly Point[], dst: readonly Point[]): number | null {
  const rows = src.map((p) => [p[0]!, p[1]!, 1]);
  const ax = leastSquares(
    rows,
    dst.map((q) => q[0]!),
  );
  const ay = leastSquares(
    rows,
    dst.map((q) => q[1]!),
  );
  if (!ax || !ay) return null;
  let sse = 0;
  rows.forEach((r, i) => {
    const x = ax[0]! * r[0]! + ax[1]! * r[1]! + ax[2]!;
    const y = ay[0]! * r[0]! + ay[1]! * r[1]! + ay[2]!;
    sse += (x - dst[i]![0]!) ** 2 + (y - dst[i]![1]!) ** 2;
  });
  return sse;
}

/** Sum of squared residuals of a plane homography fitted (algebraically, h33 = 1) from `src` to `dst`. */
function homographySse(src: readonly Point[], dst: readonly Point[]): number | null {
  const rows: number[][] = [];
  const rhs: number[] = [];
  for (let i = 0; i < src.length; i++) {
    const [x, y] = [src[i]![0]!, src[i]![1]!];
    const [u, v] = [dst[i]![0]!, dst[i]![1]!];
    rows.push([x, y, 1, 0, 0, 0, -x * u, -y * u]);
    rhs.push(u);
    rows.push([0, 0, 0, x, y, 1, -x * v, -y * v]);
    rhs.push(v);
  }
  const h = leastSquares(rows, rhs);
  if (!h) return null;
  let sse = 0;
  for (let i = 0; i < src.length; i++) {
    const [x, y] = [src[i]![0]!, src[i]![1]!];
    const w = h[6]! * x + h[7]! * y + 1;
    if (Math.abs(w) < 1e-6) return null;
    sse += ((h[0]! * x + h[1]! * y + h[2]!) / w - dst[i]![0]!) ** 2;
    sse += ((h[3]! * x + h[4]! * y + h[5]!) / w - dst[i]![1]!) ** 2;
  }
  return sse;
}

/** Normalises 2-D points of one frame: centred on the mean, unit = the face width of the reference frame. */
export function normalise(points: readonly Point[], centre: Point, unit: number): number[][] {
  return points.map((p) => [(p[0]! - centre[0]!) / unit, (p[1]! - centre[1]!) / unit, (p[2] ?? 0) / unit]);
}

export type WarpModel = 'affine' | 'homography' | 'piecewise';
export const WARP_MODELS: WarpModel[] = ['affine', 'homography', 'piecewise'];

/** Per-model RMS residual (in face widths) of explaining `dst` as a 2-D warp of `src`. */
export function warpResiduals(
  src: readonly Point[],
  dst: readonly Point[],
  sides: number[],
): Record<WarpModel, number> {
  const rms = (sse: number | null, n: number) => (sse === null ? Infinity : Math.sqrt(sse / n));
  const halves = [-1, 1].map((side) => {
    const idx = sides.map((s, i) => (s === 0 || s === side ? i : -1)).filter((i) => i >= 0);
    return {
      n: idx.length,
      sse: affineSse(
        idx.map((i) => src[i]!),
        idx.map((i) => dst[i]!),
      ),
    };
  });
  const piecewise = halves.some((h) => h.sse === null)
    ? Infinity
    : Math.sqrt((halves[0]!.sse! + halves[1]!.sse!) / (halves[0]!.n + halves[1]!.n));
  return {
    affine: rms(affineSse(src, dst), src.length),
    homography: rms(homographySse(src, dst), src.length),
    piecewise,
  };
}

/** The reference points rotated rigidly by (yaw, pitch) about their centroid and projected orthographically. */
export function rotated(points: readonly Point[], yawDeg: number, pitchDeg: number): number[][] {
  const a = (yawDeg * Math.PI) / 180;
  const b = (pitchDeg * Math.PI) / 180;
  const n = points.length;
  const c = [0, 1, 2].map((k) => points.reduce((s, p) => s + p[k]!, 0) / n);
  return points.map((p) => {
    const [x, y, z] = [p[0]! - c[0]!, p[1]! - c[1]!, p[2]! - c[2]!];
    // yaw about the vertical axis, then pitch about the horizontal one
    const x1 = x * Math.cos(a) + z * Math.sin(a);
    const z1 = -x * Math.sin(a) + z * Math.cos(a);
    const y1 = y * Math.cos(b) - z1 * Math.sin(b);
    return [x1, y1];
  });
}
