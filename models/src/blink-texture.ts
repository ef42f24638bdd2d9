import { percentile } from './liveness-signals';
import { EYE_PATCH, decodeGrey } from './track-features';
import type { FrameObservation } from './types';

/**
 * Texture of the eye patches: for each eye the grey standard deviation of the patch's upper half and of its lower
 * half (4 columns trimmed at each side), the smaller of the two, averaged over both eyes. A shut real eye keeps
 * lid shading and the lash line in both halves; a flat patch painted over the eye makes at least one half flat,
 * even when the mesh puts the "closed" lid at the patch's edge. Falls back to `eyeTexture`.
 */
export function eyeCentreTexture(f: FrameObservation): number | null {
  if (!f.eyePatch) return typeof f.eyeTexture === 'number' ? f.eyeTexture : null;
  const p = decodeGrey(f.eyePatch);
  const { width: W, height: H } = EYE_PATCH;
  if (p.length !== 2 * W * H) return null;
  let total = 0;
  for (let e = 0; e < 2; e++) {
    const stds = [
      [0, H / 2],
      [H / 2, H],
    ].map(([a, b]) => {
      const v: number[] = [];
      for (let j = a!; j < b!; j++) for (let i = 4; i < W - 4; i++) v.push(p[e * W * H + j * W + i]!);
      const m = v.reduce((x, y) => x + y, 0) / v.length;
      return Math.sqrt(v.reduce((x, y) => x + (y - m) ** 2, 0) / v.length);
    });
    total += Math.min(...stds);
  }
  return total / 2;
}

/**
 * Whether the eyes show texture while "closed": the highest eye-centre texture of the closed frames (EAR below
 * `closedRatio` of the open-eye level) over the median of the open frames. A shut real eye keeps its lash line and
 * lid shading; a patch painted over it is flat. Null when no frame is closed or the texture was not measured.
 */
export function blinkTexture(
  frames: readonly FrameObservation[],
  closedRatio: number,
  openRatio: number,
): number | null {
  const measured = frames
    .filter(
      (f): f is FrameObservation & { eyeAspectRatio: number } => f.faces === 1 && f.eyeAspectRatio !== null,
    )
    .map((f) => ({ ear: f.eyeAspectRatio, texture: eyeCentreTexture(f) }))
    .filter((f): f is { ear: number; texture: number } => f.texture !== null);
  if (measured.length < 3) return null;
  const baseline = percentile(
    measured.map((f) => f.ear),
    0.75,
  );
  const closed = measured.filter((f) => f.ear < closedRatio * baseline);
  const open = measured.filter((f) => f.ear >= openRatio * baseline);
  if (!closed.length || !open.length) return null;
  const openLevel = percentile(
    open.map((f) => f.texture),
    0.5,
  );
  if (!(openLevel > 0)) return null;
  return Math.max(...closed.map((f) => f.texture)) / openLevel;
}
