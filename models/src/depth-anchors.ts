import { percentile, turnedFrames } from './liveness-signals';
import {
  ANCHOR_PATCH,
  ANCHOR_POINTS,
  ANCHOR_SPAN,
  TRACK_LANDMARKS,
  decodeGrey,
  faceWidth,
} from './track-features';
import type { FrameObservation } from './types';
import { rotated } from './warp-fit';

/**
 * The nose tip's parallax, measured in the pixels at the frame's own resolution.
 *
 * Every 2-D trick that fakes a head turn from one photo (a card turned, a cylinder wrapped, one half squeezed and
 * the other stretched) moves a point sideways by an amount set by its column; the nose tip, the bridge between the
 * brows and the middle of the upper lip lie in about one column, so under such a warp they move alike. A real head
 * turning moves the nose tip further than the other two, by its depth times the sine of the turn. The 48-pixel face
 * thumbnail (depth-parallax.ts) sees that as about one pixel, near its matching noise; here each anchor's
 * neighbourhood is kept at 0.4 face widths in 32 pixels, so the same parallax spans several pixels.
 *
 * For each frame turned far enough from the reference (nearest the median yaw), the reference's patch middle is
 * found again in the frame's patch around the same anchor (normalised cross-correlation, sub-pixel by a parabola):
 * that says where the reference's nose-tip *pixels* went, whatever the mesh network believes (shown a warped photo,
 * it still returns a turned face). The nose tip's sideways motion minus each other anchor's, in face widths, is
 * compared with what the reference mesh turned rigidly by the pose track's yaw and pitch predicts: the statistic is
 * the least-squares gain of the measured on the predicted, ≈ 0 for any column warp, about the mesh's own depth scale
 * for a head, negative when the pixels move against the turn.
 */

const SLOT = new Map<number, number>(TRACK_LANDMARKS.map((m, i) => [m, i]));
const at = (m: number) => SLOT.get(m)!;
const NOSE = ANCHOR_POINTS.indexOf(1);
/** The template: the middle half of the reference patch, searched over ±8 pixels of the frame's patch. */
const TEMPLATE = ANCHOR_PATCH / 2;
const SEARCH = (ANCHOR_PATCH - TEMPLATE) / 2;
/** Below this correlation an anchor was not found again (hidden by the turn, blurred, or covered). */
const MIN_MATCH = 0.6;

type AnchoredFrame = FrameObservation & { landmarks: number[][]; yawDeg: number; anchorPatch: string };

/** How far right of the frame's patch middle the reference's template lies (patch pixels); null when not found. */
function findTemplate(ref: Uint8Array, cur: Uint8Array, offset: number): number | null {
  const n = TEMPLATE * TEMPLATE;
  const t = new Float64Array(n);
  let mean = 0;
  for (let j = 0; j < TEMPLATE; j++)
    for (let i = 0; i < TEMPLATE; i++) mean += ref[offset + (j + SEARCH) * ANCHOR_PATCH + i + SEARCH]!;
  mean /= n;
  let varT = 0;
  for (let j = 0; j < TEMPLATE; j++)
    for (let i = 0; i < TEMPLATE; i++) {
      const v = ref[offset + (j + SEARCH) * ANCHOR_PATCH + i + SEARCH]! - mean;
      t[j * TEMPLATE + i] = v;
      varT += v * v;
    }
  if (Math.sqrt(varT / n) < 3) return null;
  const side = 2 * SEARCH + 1;
  const score = new Float64Array(side * side);
  let best = -2;
  let bx = 0;
  let by = 0;
  for (let oy = 0; oy < side; oy++)
    for (let ox = 0; ox < side; ox++) {
      let sum = 0;
      let sq = 0;
      let cov = 0;
      for (let j = 0; j < TEMPLATE; j++) {
        const row = offset + (oy + j) * ANCHOR_PATCH + ox;
        for (let i = 0; i < TEMPLATE; i++) {
          const v = cur[row + i]!;
          sum += v;
          sq += v * v;
          cov += t[j * TEMPLATE + i]! * v;
        }
      }
      const varC = sq - (sum * sum) / n;
      const ncc = varC > 1e-9 ? cov / Math.sqrt(varT * varC) : 0;
      score[oy * side + ox] = ncc;
      if (ncc > best) {
        best = ncc;
        bx = ox;
        by = oy;
      }
    }
  if (best < MIN_MATCH || bx === 0 || bx === side - 1 || by === 0 || by === side - 1) return null;
  const [l, m, r] = [score[by * side + bx - 1]!, best, score[by * side + bx + 1]!];
  const curvature = l - 2 * m + r;
  const sub = curvature < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (l - r)) / curvature)) : 0;
  return bx - SEARCH + sub;
}

export interface AnchorFrame {
  timeSeconds: number;
  yawDelta: number;
  /** Nose tip's sideways motion minus each other anchor's, measured and predicted, in face widths. */
  measured: number[];
  predicted: number[];
  gain: number;
}

/**
 * One turned frame against the reference (its patches decoded once by the caller that compares many frames with it);
 * null when an anchor was not found again or nothing is predicted.
 */
export function anchorFrame(
  ref: AnchoredFrame,
  cur: AnchoredFrame,
  refPatch = decodeGrey(ref.anchorPatch),
): AnchorFrame | null {
  const refWidth = faceWidth(ref.landmarks[at(234)], ref.landmarks[at(454)]);
  const curWidth = faceWidth(cur.landmarks[at(234)], cur.landmarks[at(454)]);
  const curPatch = decodeGrey(cur.anchorPatch);
  const size = ANCHOR_PATCH * ANCHOR_PATCH;
  if (refWidth === null || curWidth === null) return null;
  if (refPatch.length !== ANCHOR_POINTS.length * size || curPatch.length !== refPatch.length) return null;
  const yawDelta = cur.yawDeg - ref.yawDeg;
  const turned = rotated(ref.landmarks, yawDelta, (cur.pitchDeg ?? 0) - (ref.pitchDeg ?? 0));
  const cx = ref.landmarks.reduce((s, p) => s + p[0]!, 0) / ref.landmarks.length;
  const step = (ANCHOR_SPAN * curWidth) / ANCHOR_PATCH;
  // Each anchor's sideways motion, measured (where its reference pixels are now) and predicted (the rigid turn).
  const motions = ANCHOR_POINTS.map((m, k) => {
    const found = findTemplate(refPatch, curPatch, k * size);
    if (found === null) return null;
    const slot = at(m);
    const x0 = ref.landmarks[slot]![0]!;
    return {
      measured: (cur.landmarks[slot]![0]! + found * step - x0) / refWidth,
      predicted: (turned[slot]![0]! - (x0 - cx)) / refWidth,
    };
  });
  const nose = motions[NOSE];
  if (!nose || motions.some((m) => m === null)) return null;
  const others = motions.filter((_, k) => k !== NOSE) as { measured: number; predicted: number }[];
  const measured = others.map((o) => nose.measured - o.measured);
  const predicted = others.map((o) => nose.predicted - o.predicted);
  const pp = predicted.reduce((a, p) => a + p * p, 0);
  if (!(pp > 1e-6)) return null;
  const gain = predicted.reduce((a, p, i) => a + p * measured[i]!, 0) / pp;
  return { timeSeconds: cur.timeSeconds, yawDelta, measured, predicted, gain };
}

export interface DepthAnchorsResult {
  /** Median over the turned frames of the measured nose parallax's gain on the predicted one. */
  gain: number;
  frames: AnchorFrame[];
}

/** Null when fewer than `minFrames` frames turned at least `minYawDeg` with every anchor found again. */
export function depthAnchors(
  frames: readonly FrameObservation[],
  minYawDeg: number,
  minFrames: number,
): DepthAnchorsResult | null {
  const usable = frames.filter(
    (f): f is AnchoredFrame =>
      f.faces === 1 &&
      f.yawDeg !== null &&
      !!f.anchorPatch &&
      f.landmarks?.length === TRACK_LANDMARKS.length &&
      f.landmarks.every((p) => p.length >= 3 && p.every(Number.isFinite)),
  );
  if (usable.length < minFrames + 1) return null;
  const { ref, turned } = turnedFrames(usable, minYawDeg);
  const refPatch = decodeGrey(ref.anchorPatch);
  const out: AnchorFrame[] = [];
  for (const { frame: f } of turned) {
    const frame = anchorFrame(ref, f, refPatch);
    if (frame) out.push(frame);
  }
  if (out.length < minFrames) return null;
  return {
    gain: percentile(
      out.map((f) => f.gain),
      0.5,
    ),
    frames: out,
  };
}
