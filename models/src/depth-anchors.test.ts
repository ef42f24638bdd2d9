import { describe, expect, it } from 'vitest';
import { anchorFrame, depthAnchors } from './depth-anchors';
import { assessConsistency, defaultConsistencyOptions, type TrackFrame } from './liveness-3d';
import { ANCHOR_PATCH, ANCHOR_POINTS, ANCHOR_SPAN, TRACK_LANDMARKS, anchorPatches } from './track-features';

/**
 * A face 100 px wide (mesh points 234 → 454) whose three midline anchors share one column: the nose tip (1) 0.14 face
 * widths in front of the bridge (168), the upper lip (0) between them. z grows towards the camera, as in
 * liveness-3d.test.ts.
 */
const POSITION: Record<number, number[]> = {
  234: [100, 160, -30],
  454: [200, 160, -30],
  168: [150, 130, 8],
  1: [150, 170, 22],
  0: [150, 200, 18],
};
const slot = (m: number) => (TRACK_LANDMARKS as readonly number[]).indexOf(m);
const reference = TRACK_LANDMARKS.map(
  (m, i) => POSITION[m] ?? [110 + ((i * 37) % 80), 110 + ((i * 53) % 110), 0],
);

/** Texture of the scene, in the reference frame's pixels. */
const texture = (x: number, y: number) =>
  128 + 50 * Math.sin(x / 2.3 + Math.cos(y / 3.1)) + 40 * Math.cos(y / 2.6 - Math.sin(x / 3.7));

/**
 * Anchor patches of a frame whose landmarks are `landmarks` and in which the pixels around anchor k have moved
 * sideways by `moved[k]` from where the reference showed them (what anchorPatches samples from a real frame).
 */
function patches(landmarks: number[][], moved: readonly number[]): string {
  const [left, right] = [landmarks[slot(234)]!, landmarks[slot(454)]!];
  const width = Math.hypot(right[0]! - left[0]!, right[1]! - left[1]!);
  const step = (ANCHOR_SPAN * width) / ANCHOR_PATCH;
  const out = new Uint8Array(ANCHOR_POINTS.length * ANCHOR_PATCH * ANCHOR_PATCH);
  let k = 0;
  ANCHOR_POINTS.forEach((m, a) => {
    const p = landmarks[slot(m)]!;
    for (let j = 0; j < ANCHOR_PATCH; j++)
      for (let i = 0; i < ANCHOR_PATCH; i++) {
        const x = p[0]! + (i + 0.5 - ANCHOR_PATCH / 2) * step;
        const y = p[1]! + (j + 0.5 - ANCHOR_PATCH / 2) * step;
        out[k++] = Math.round(texture(x - moved[a]!, y));
      }
  });
  return Buffer.from(out).toString('base64');
}

const frame = (t: number, yawDeg: number, landmarks: number[][], anchorPatch: string | null): TrackFrame => ({
  timeSeconds: t,
  faces: 1,
  yawDeg,
  pitchDeg: 0,
  eyeAspectRatio: 0.3,
  qualityScore: 0.9,
  landmarks,
  anchorPatch,
});

/** The reference mesh turned rigidly by `yaw` about its centroid (as `rotated` turns it), depth turned too. */
function turnedMesh(yaw: number): number[][] {
  const a = (yaw * Math.PI) / 180;
  const c = [0, 1, 2].map((k) => reference.reduce((s, p) => s + p[k]!, 0) / reference.length);
  return reference.map(([x, y, z]) => {
    const [dx, dz] = [x! - c[0]!, z! - c[2]!];
    return [c[0]! + dx * Math.cos(a) + dz * Math.sin(a), y!, c[2]! - dx * Math.sin(a) + dz * Math.cos(a)];
  });
}
/** How far each anchor's pixels move in a rigid turn by `yaw` (the turned mesh's position minus the reference's). */
const rigidMotion = (yaw: number) =>
  ANCHOR_POINTS.map((m) => {
    const i = slot(m);
    return turnedMesh(yaw)[i]![0]! - reference[i]![0]!;
  });

const ref = frame(0, 0, reference, patches(reference, [0, 0, 0]));

describe('depthAnchors', () => {
  it('reads a rigid turn as the parallax its mesh predicts (gain ≈ 1), whatever small error the mesh makes', () => {
    for (const yaw of [12, -18]) {
      const mesh = turnedMesh(yaw);
      const result = anchorFrame(
        ref as never,
        frame(1, yaw, mesh, patches(mesh, rigidMotion(yaw))) as never,
      )!;
      expect(result.gain).toBeGreaterThan(0.85);
      expect(result.gain).toBeLessThan(1.15);
      // The landmarks only say where to look: put them 2 px off and the pixels still tell the same motion.
      const off = mesh.map(([x, y, z]) => [x! + 2, y!, z!]);
      const shifted = anchorFrame(ref as never, frame(1, yaw, off, patches(off, rigidMotion(yaw))) as never)!;
      expect(shifted.gain).toBeCloseTo(result.gain, 1);
    }
  });

  it('reads a column warp as no parallax (gain ≈ 0), though the mesh network reports a turned face', () => {
    for (const yaw of [12, -18]) {
      const mesh = turnedMesh(yaw);
      // Every anchor lies in one column, so any x' = f(x) moves their pixels alike: by the bridge's motion here.
      const column = rigidMotion(yaw)[ANCHOR_POINTS.indexOf(168)]!;
      const result = anchorFrame(
        ref as never,
        frame(1, yaw, mesh, patches(mesh, [column, column, column])) as never,
      )!;
      expect(Math.abs(result.gain)).toBeLessThan(0.1);
      expect(Math.abs(result.measured[0]!)).toBeLessThan(0.005);
      expect(Math.abs(result.predicted[0]!)).toBeGreaterThan(0.02);
    }
  });

  it('takes the median over the turned frames and says nothing without them or without patches', () => {
    const turn = [0, 0, 10, 15, 20, -15].map((yaw, i) => {
      const mesh = turnedMesh(yaw);
      return frame(i / 8, yaw, mesh, patches(mesh, rigidMotion(yaw)));
    });
    const result = depthAnchors(turn, 6, 2)!;
    expect(result.frames.length).toBe(4);
    expect(result.gain).toBeGreaterThan(0.85);
    expect(depthAnchors(turn.slice(0, 3), 6, 2)).toBeNull(); // one turned frame
    expect(
      depthAnchors(
        turn.map((f) => ({ ...f, anchorPatch: null })),
        6,
        2,
      ),
    ).toBeNull();
    // A flat patch (a covered nose) cannot be found again.
    const flat = Buffer.alloc(ANCHOR_POINTS.length * ANCHOR_PATCH ** 2, 120).toString('base64');
    expect(
      depthAnchors(
        turn.map((f) => ({ ...f, anchorPatch: flat })),
        6,
        2,
      ),
    ).toBeNull();
  });
});

describe('the nose-parallax veto (assessConsistency)', () => {
  // The warp score held out of the way (its floor at −∞), so what is seen is the veto alone.
  const options = { ...defaultConsistencyOptions, minWarpScore: -Infinity };
  const clip = (moved: (yaw: number) => number[], withPatches = true) =>
    [0, 0, 10, 15, 20, -15].map((yaw, i) => {
      const mesh = turnedMesh(yaw);
      return frame(i / 8, yaw, mesh, withPatches ? patches(mesh, moved(yaw)) : null);
    });
  const column = (yaw: number) => ANCHOR_POINTS.map(() => rigidMotion(yaw)[ANCHOR_POINTS.indexOf(168)]!);

  it('passes a turn whose nose moves by its depth and refuses one whose pixels move by their column', () => {
    const head = assessConsistency(clip(rigidMotion), options);
    expect(head.reasons).toEqual([]);
    expect(head.noseParallax!.gain).toBeGreaterThan(0.85);
    const warp = assessConsistency(clip(column), options);
    expect(warp.reasons).toEqual(['motion_is_2d_warp']);
    expect(warp.noseParallax!.gain).toBeLessThan(defaultConsistencyOptions.minNoseParallax!);
    // Off (null), the same warp passes: the veto is what refused it.
    expect(assessConsistency(clip(column), { ...options, minNoseParallax: null }).reasons).toEqual([]);
  });

  it('refuses a turned clip whose nose parallax cannot be measured, and leaves a clip that never turned alone', () => {
    const unmeasured = assessConsistency(clip(rigidMotion, false), options);
    expect(unmeasured.noseParallax).toBeNull();
    expect(unmeasured.reasons).toEqual(['motion_is_2d_warp']);
    const still = [0, 0, 1, 0].map((yaw, i) => frame(i / 8, yaw, turnedMesh(yaw), null));
    const r = assessConsistency(still, options);
    expect(r.warpScore).toBeNull();
    expect(r.reasons).toEqual([]);
  });
});

describe('anchorPatches', () => {
  it('centres each patch on its anchor, 0.4 face widths across', () => {
    // A dark frame with one bright pixel block at the nose tip: only the nose patch shows it, in its middle.
    const width = 320;
    const data = new Uint8Array(width * width * 3);
    for (let y = 168; y <= 171; y++)
      for (let x = 148; x <= 151; x++) data.fill(255, (y * width + x) * 3, (y * width + x) * 3 + 3);
    const mesh: number[][] = [];
    for (const [m, p] of Object.entries(POSITION)) mesh[Number(m)] = [p[0]! - 0.5, p[1]! - 0.5, p[2]!];
    const bytes = Buffer.from(anchorPatches({ data, width, height: width }, mesh)!, 'base64');
    const size = ANCHOR_PATCH * ANCHOR_PATCH;
    const nose = ANCHOR_POINTS.indexOf(1);
    const bright = (a: number) => [...bytes.subarray(a * size, (a + 1) * size)].filter((v) => v > 100).length;
    expect(bright(nose)).toBeGreaterThan(0);
    ANCHOR_POINTS.forEach((_, a) => a !== nose && expect(bright(a)).toBe(0));
    const middle = nose * size + (ANCHOR_PATCH / 2) * ANCHOR_PATCH + ANCHOR_PATCH / 2;
    expect(bytes[middle]).toBeGreaterThan(100);
    // 4 bright pixels over 0.4 × 100 / 32 = 1.25 px per patch pixel: 3–5 patch pixels a side (0.2 widths: 6–7).
    expect(bright(nose)).toBeGreaterThan(4);
    expect(bright(nose)).toBeLessThanOrEqual(25);
  });
});
