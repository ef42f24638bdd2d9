import { percentile, turnedFrames } from './liveness-signals';
import { THUMB_SIZE, decodeGrey } from './track-features';
import type { FrameObservation } from './types';

/**
 * How much of a frame's face cannot be found, block by block, anywhere nearby in the reference frame: the face
 * thumbnail is cut into 6 × 6 blocks (the textured ones, grey standard deviation ≥ 3), each is searched for within
 * ±6 thumbnail pixels of its place in the reference thumbnail, and 1 − the best normalised correlation is averaged.
 * A photo bent by any smooth 2-D warp keeps its pixels (each small block is still found, only shifted); a head that
 * turns changes its shading and hides or shows parts of itself, so blocks stop matching.
 */
function unmatched(ref: Uint8Array, cur: Uint8Array, size: number): number | null {
  if (ref.length !== size * size || cur.length !== size * size) return null;
  const B = 6;
  const R = 6;
  let sum = 0;
  let n = 0;
  for (let by = B; by + B <= size - B; by += B)
    for (let bx = B; bx + B <= size - B; bx += B) {
      let mean = 0;
      for (let j = 0; j < B; j++) for (let i = 0; i < B; i++) mean += cur[(by + j) * size + bx + i]!;
      mean /= B * B;
      let varC = 0;
      for (let j = 0; j < B; j++)
        for (let i = 0; i < B; i++) varC += (cur[(by + j) * size + bx + i]! - mean) ** 2;
      if (Math.sqrt(varC / (B * B)) < 3) continue;
      let best = -1;
      for (let dy = -R; dy <= R; dy++)
        for (let dx = -R; dx <= R; dx++) {
          const ox = bx + dx;
          const oy = by + dy;
          if (ox < 0 || oy < 0 || ox + B > size || oy + B > size) continue;
          let mr = 0;
          for (let j = 0; j < B; j++) for (let i = 0; i < B; i++) mr += ref[(oy + j) * size + ox + i]!;
          mr /= B * B;
          let cov = 0;
          let varR = 0;
          for (let j = 0; j < B; j++)
            for (let i = 0; i < B; i++) {
              const a = cur[(by + j) * size + bx + i]! - mean;
              const b = ref[(oy + j) * size + ox + i]! - mr;
              cov += a * b;
              varR += b * b;
            }
          const ncc = varR > 0 ? cov / Math.sqrt(varC * varR) : 0;
          if (ncc > best) best = ncc;
        }
      sum += 1 - best;
      n++;
    }
  return n >= 8 ? sum / n : null;
}

export interface PhotometricResult {
  /** Median over the motion frames of the unmatched share (0: every block found again; higher: real change). */
  change: number;
  frames: { timeSeconds: number; yawDelta: number; change: number }[];
}

/**
 * The photometric side of the 2-D warp test: the same reference and motion frames as `parallaxConsistency`, but
 * the face's pixels rather than the mesh (a mesh network asked to fit a squeezed photo returns a plausible turned
 * face, parallax included, so landmarks alone cannot tell). Null when too few frames turned.
 */
export function photometricConsistency(
  frames: readonly FrameObservation[],
  minYawDeg: number,
  minFrames: number,
): PhotometricResult | null {
  const usable = frames.filter(
    (f): f is FrameObservation & { faceThumb: string; yawDeg: number } =>
      f.faces === 1 && !!f.faceThumb && f.yawDeg !== null,
  );
  if (usable.length < minFrames + 1) return null;
  const { ref, turned } = turnedFrames(usable, minYawDeg);
  const refThumb = decodeGrey(ref.faceThumb);
  const out: PhotometricResult['frames'] = [];
  for (const { frame: f, yawDelta } of turned) {
    const change = unmatched(refThumb, decodeGrey(f.faceThumb), THUMB_SIZE);
    if (change !== null) out.push({ timeSeconds: f.timeSeconds, yawDelta, change });
  }
  if (out.length < minFrames) return null;
  return {
    change: percentile(
      out.map((f) => f.change),
      0.5,
    ),
    frames: out,
  };
}
