import { percentile, turnedFrames } from './liveness-signals';
import { THUMB_SIZE, decodeGrey } from './track-features';
import type { FrameObservation } from './types';

/** One block of a turned frame's face thumbnail, found again in the reference thumbnail. */
export interface BlockShift {
  /** Block centre in the turned frame (thumbnail pixels). */
  x: number;
  y: number;
  /** Where it came from in the reference, relative to its own place (sub-pixel in x). */
  dx: number;
  dy: number;
  ncc: number;
}

/** Where a parabola through three neighbouring correlations peaks, relative to the middle one (±0.5 at most). */
function vertex(left: number, middle: number, right: number): number {
  const curvature = left - 2 * middle + right;
  return curvature < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (left - right)) / curvature)) : 0;
}

const BLOCK = 6;
const STRIDE = 3;
const SEARCH = 6;
/**
 * The lowest correlation at which a block's shift counts. At 0.7 (before 2026-11-29) the blocks that matched only
 * loosely — smooth cheeks, the eyes pasted shut — left shifts off by a pixel or more, which the upper quartile of
 * `depthResidual` then read as depth: on the tuning half's one-photo warps that the motions accept, their residual
 * reached 0.96 px against 1.05 for the lowest tuning person. Held to 0.8, the warps' highest residual falls to 1.9
 * of their own log standard deviations above their mean (2.4 at 0.7) while the lowest person's stays 3.1 (2.8)
 * above it (`npx tsx models/scripts/probe-depth-match.ts`; MODEL_CARD.md, video liveness).
 */
const MIN_MATCH = 0.8;

/**
 * Block matching of `cur` against `ref` (both `size`² grey): every textured 6 × 6 block on a 3-pixel grid, searched
 * within ±6 pixels, with a parabola through the correlation at the best dx and its two neighbours for a sub-pixel
 * dx. Blocks whose best match lies on the edge of the search or correlates below `minMatch` are left out (no
 * reliable shift).
 */
export function blockShifts(
  ref: Uint8Array,
  cur: Uint8Array,
  size: number,
  minMatch = MIN_MATCH,
): BlockShift[] {
  const out: BlockShift[] = [];
  const n = BLOCK * BLOCK;
  const side = 2 * SEARCH + 1;
  const score = new Float64Array(side * side);
  // Sums of the reference and of its squares over every 6 × 6 window (summed-area tables), so each candidate
  // costs one pass of products: cov = Σ (a − ā)·b and Σ (b − b̄)² = Σ b² − (Σ b)² / n.
  const W = size + 1;
  const sum = new Float64Array(W * W);
  const sq = new Float64Array(W * W);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const value = ref[y * size + x]!;
      const i = (y + 1) * W + x + 1;
      sum[i] = value + sum[i - 1]! + sum[i - W]! - sum[i - W - 1]!;
      sq[i] = value * value + sq[i - 1]! + sq[i - W]! - sq[i - W - 1]!;
    }
  const window = (table: Float64Array, x: number, y: number) =>
    table[(y + BLOCK) * W + x + BLOCK]! -
    table[y * W + x + BLOCK]! -
    table[(y + BLOCK) * W + x]! +
    table[y * W + x]!;
  const centred = new Float64Array(n);
  for (let by = SEARCH; by + BLOCK + SEARCH <= size; by += STRIDE)
    for (let bx = SEARCH; bx + BLOCK + SEARCH <= size; bx += STRIDE) {
      let mean = 0;
      for (let j = 0; j < BLOCK; j++) for (let i = 0; i < BLOCK; i++) mean += cur[(by + j) * size + bx + i]!;
      mean /= n;
      let varC = 0;
      for (let j = 0; j < BLOCK; j++)
        for (let i = 0; i < BLOCK; i++) {
          const a = cur[(by + j) * size + bx + i]! - mean;
          centred[j * BLOCK + i] = a;
          varC += a * a;
        }
      if (Math.sqrt(varC / n) < 4) continue;
      let best = -2;
      let bestDx = 0;
      let bestDy = 0;
      for (let dy = -SEARCH; dy <= SEARCH; dy++)
        for (let dx = -SEARCH; dx <= SEARCH; dx++) {
          const ox = bx + dx;
          const oy = by + dy;
          let cov = 0;
          for (let j = 0; j < BLOCK; j++) {
            const row = (oy + j) * size + ox;
            for (let i = 0; i < BLOCK; i++) cov += centred[j * BLOCK + i]! * ref[row + i]!;
          }
          const s1 = window(sum, ox, oy);
          const varR = window(sq, ox, oy) - (s1 * s1) / n;
          const ncc = varR > 1e-9 ? cov / Math.sqrt(varC * varR) : 0;
          score[(dy + SEARCH) * side + dx + SEARCH] = ncc;
          if (ncc > best) {
            best = ncc;
            bestDx = dx;
            bestDy = dy;
          }
        }
      if (best < minMatch || Math.abs(bestDx) === SEARCH || Math.abs(bestDy) === SEARCH) continue;
      const at = (dx: number, dy: number) => score[(dy + SEARCH) * side + dx + SEARCH]!;
      out.push({
        x: bx + BLOCK / 2,
        y: by + BLOCK / 2,
        dx: bestDx + vertex(at(bestDx - 1, bestDy), best, at(bestDx + 1, bestDy)),
        dy: bestDy + vertex(at(bestDx, bestDy - 1), best, at(bestDx, bestDy + 1)),
        ncc: best,
      });
    }
  return out;
}

const median = (values: readonly number[]) => percentile(values, 0.5);

/**
 * How much of a turned frame's sideways motion depends on depth rather than on the column alone, in thumbnail
 * pixels.
 *
 * Every 2-D trick that fakes a head turn from one photo moves each pixel sideways by an amount set by its column
 * (a card turned, a cylinder wrapped, one half squeezed and the other stretched: x' = f(x), y' = y), up to the face
 * box's own shift, scale and tilt, which add a term linear in y. A real head turning about its vertical axis moves
 * each point by its depth: the nose tip further than the brow and the chin in the same column, the eye sockets
 * less. So: remove each column's median dx, then a straight line in y fitted to what is left (the box's tilt), and
 * take the upper quartile of the remainder's size (the nose and the eye sockets are a minority of the blocks).
 * Small for a warped photo; larger for a real turn. Null with too few reliable blocks.
 */
export function depthResidual(shifts: readonly BlockShift[]): number | null {
  const columns = new Map<number, BlockShift[]>();
  for (const s of shifts) columns.set(s.x, [...(columns.get(s.x) ?? []), s]);
  const rest: { y: number; v: number }[] = [];
  for (const list of columns.values()) {
    if (list.length < 3) continue;
    const m = median(list.map((s) => s.dx));
    for (const s of list) rest.push({ y: s.y, v: s.dx - m });
  }
  if (rest.length < 12) return null;
  const my = rest.reduce((a, p) => a + p.y, 0) / rest.length;
  const mv = rest.reduce((a, p) => a + p.v, 0) / rest.length;
  let sxy = 0;
  let sxx = 0;
  for (const p of rest) {
    sxy += (p.y - my) * (p.v - mv);
    sxx += (p.y - my) ** 2;
  }
  const slope = sxx > 0 ? sxy / sxx : 0;
  return percentile(
    rest.map((p) => Math.abs(p.v - mv - slope * (p.y - my))),
    0.75,
  );
}

export interface DepthParallaxResult {
  /** Median over the turned frames of `depthResidual` against the reference frame. */
  residual: number;
  frames: { timeSeconds: number; yawDelta: number; residual: number }[];
}

/**
 * The depth side of the 2-D warp test, on the face's pixels: the same reference (nearest the median yaw) and turned
 * frames as `parallaxConsistency` and `photometricConsistency`. Null when too few frames turned.
 */
export function depthParallax(
  frames: readonly FrameObservation[],
  minYawDeg: number,
  minFrames: number,
  minMatch = MIN_MATCH,
): DepthParallaxResult | null {
  const usable = frames.filter(
    (f): f is FrameObservation & { faceThumb: string; yawDeg: number } =>
      f.faces === 1 && !!f.faceThumb && f.yawDeg !== null,
  );
  if (usable.length < minFrames + 1) return null;
  const { ref, turned } = turnedFrames(usable, minYawDeg);
  const refThumb = decodeGrey(ref.faceThumb);
  if (refThumb.length !== THUMB_SIZE * THUMB_SIZE) return null;
  const out: DepthParallaxResult['frames'] = [];
  for (const { frame: f, yawDelta } of turned) {
    const cur = decodeGrey(f.faceThumb);
    if (cur.length !== THUMB_SIZE * THUMB_SIZE) continue;
    const residual = depthResidual(blockShifts(refThumb, cur, THUMB_SIZE, minMatch));
    if (residual !== null) out.push({ timeSeconds: f.timeSeconds, yawDelta, residual });
  }
  if (out.length < minFrames) return null;
  return { residual: median(out.map((f) => f.residual)), frames: out };
}
