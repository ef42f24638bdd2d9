import { percentile, turnedFrames } from './liveness-signals';
import { TRACK_LANDMARKS } from './track-features';
import type { FrameObservation } from './types';
import { WARP_MODELS, normalise, rotated, warpResiduals, type WarpModel } from './warp-fit';

/** Where each mesh point sits in a tracked frame's landmarks (`TRACK_LANDMARKS` order). */
const SLOT = new Map<number, number>(TRACK_LANDMARKS.map((m, i) => [m, i]));
const at = (m: number) => SLOT.get(m)!;
/** Slots of the midline points (they belong to both halves of the piecewise model). */
const MIDLINE = [10, 151, 9, 168, 6, 197, 195, 5, 4, 1, 2, 0, 13, 14, 17, 199, 175, 152].map(at);
const FACE_LEFT = at(234);
const FACE_RIGHT = at(454);

export interface ParallaxFrame {
  timeSeconds: number;
  yawDelta: number;
  /** Observed residual / the residual a rigid turn of the reference mesh by the same angles would leave, per model. */
  ratios: Record<WarpModel, number>;
}

export interface ParallaxResult {
  /** Median over the motion frames of the smallest per-model ratio (≈1 for a real head, ≈0 for a warped photo). */
  ratio: number;
  referenceTime: number;
  frames: ParallaxFrame[];
}

/**
 * How far the landmark motion of a clip departs from a 2-D warp, relative to the parallax the mesh's own rigid pose
 * track says it should show. A reference frame (the one nearest the median yaw) is compared with every frame whose
 * yaw differs by at least `minYawDeg`: for each 2-D model (whole-image affine, homography, and piecewise affine with
 * one map per face half), the observed residual of explaining the frame as that warp of the reference is divided
 * by the residual the same model leaves on the reference mesh rotated rigidly by the frame's yaw and pitch change.
 * A real head turns its nose tip and cheek contour by different amounts (they lie at different depths), so the
 * observed residual is about what the rotation predicts; a photo bent by any of these warps has none. Null when
 * fewer than `minFrames` frames turned far enough to say.
 */
export function parallaxConsistency(
  frames: readonly FrameObservation[],
  minYawDeg: number,
  minFrames: number,
): ParallaxResult | null {
  const usable = frames.filter(
    (f): f is FrameObservation & { landmarks: number[][]; yawDeg: number } =>
      f.faces === 1 &&
      f.yawDeg !== null &&
      // A track from elsewhere (a stored observation, another version) may carry another point set: skip it.
      f.landmarks?.length === TRACK_LANDMARKS.length &&
      f.landmarks.every((p) => p.length >= 3 && p.every(Number.isFinite)),
  );
  if (usable.length < minFrames + 1) return null;
  const { ref, turned } = turnedFrames(usable, minYawDeg);
  const unit = Math.hypot(
    ref.landmarks[FACE_RIGHT]![0]! - ref.landmarks[FACE_LEFT]![0]!,
    ref.landmarks[FACE_RIGHT]![1]! - ref.landmarks[FACE_LEFT]![1]!,
  );
  if (!(unit > 10)) return null;
  const centre = [0, 1, 2].map((k) => ref.landmarks.reduce((s, p) => s + p[k]!, 0) / ref.landmarks.length);
  const src = normalise(ref.landmarks, centre, unit);
  // Which half of the face each point belongs to: the side of the reference midline (bridge → chin) it lies on.
  const top = src[at(168)]!;
  const chin = src[at(152)]!;
  const dir = [chin[0]! - top[0]!, chin[1]! - top[1]!];
  const len = Math.hypot(dir[0]!, dir[1]!) || 1;
  const midSet = new Set(MIDLINE);
  const sides = src.map((p, i) => {
    if (midSet.has(i)) return 0;
    const cross = (dir[0]! * (p[1]! - top[1]!) - dir[1]! * (p[0]! - top[0]!)) / len;
    return cross < 0 ? -1 : 1;
  });
  const result: ParallaxFrame[] = [];
  for (const { frame: f, yawDelta } of turned) {
    const pitchDelta = (f.pitchDeg ?? 0) - (ref.pitchDeg ?? 0);
    const observed = warpResiduals(src, normalise(f.landmarks, centre, unit), sides);
    const expected = warpResiduals(src, rotated(src, yawDelta, pitchDelta), sides);
    const ratios = Object.fromEntries(
      WARP_MODELS.map((m) => [m, expected[m] > 0 ? observed[m] / expected[m] : Infinity]),
    ) as Record<WarpModel, number>;
    result.push({ timeSeconds: f.timeSeconds, yawDelta, ratios });
  }
  if (result.length < minFrames) return null;
  return {
    ratio: percentile(
      result.map((r) => Math.min(...WARP_MODELS.map((m) => r.ratios[m]))),
      0.5,
    ),
    referenceTime: ref.timeSeconds,
    frames: result,
  };
}
