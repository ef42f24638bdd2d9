import { describe, expect, it } from 'vitest';
import { blinkTexture } from './blink-texture';
import {
  assessConsistency,
  defaultConsistencyOptions,
  passiveCue,
  videoTrack,
  warpScore,
  type ConsistencyOptions,
  type TrackFrame,
} from './liveness-3d';
import { parallaxConsistency } from './parallax';
import { photometricConsistency } from './photometric';
import { EYE_PATCH, THUMB_SIZE, TRACK_LANDMARKS } from './track-features';
import type { VideoObservation } from './types';

/** A deterministic face-like 3-D point set in pixels: 150 px wide, the nose tip well in front of the cheeks. */
function face(): number[][] {
  let s = 7;
  const rand = () => ((s = (s * 16807) % 2147483647) / 2147483647) * 2 - 1;
  return TRACK_LANDMARKS.map((m) => {
    if (m === 234) return [-75, 0, -40];
    if (m === 454) return [75, 0, -40];
    if (m === 168) return [0, -40, 10];
    if (m === 152) return [0, 90, 0];
    if (m === 1) return [0, 30, 45];
    const x = rand() * 60;
    return [x, rand() * 80, 30 - Math.abs(x) * 0.6 + rand() * 5];
  });
}

const frame = (
  t: number,
  yawDeg: number,
  landmarks: number[][],
  extra: Partial<TrackFrame> = {},
): TrackFrame => ({
  timeSeconds: t,
  faces: 1,
  yawDeg,
  pitchDeg: 0,
  eyeAspectRatio: 0.3,
  qualityScore: 0.9,
  landmarks,
  ...extra,
});

const rotate = (pts: number[][], deg: number) => {
  const a = (deg * Math.PI) / 180;
  return pts.map(([x, y, z]) => [
    x! * Math.cos(a) + z! * Math.sin(a) + 160,
    y! + 160,
    -x! * Math.sin(a) + z! * Math.cos(a),
  ]);
};

describe('parallaxConsistency', () => {
  const ref = face();
  it('reads a rigid 3-D turn as a real one (observed residual = the rotation’s own)', () => {
    const frames = [0, 0, 0, 15, 20, 20, 0, -15, -20].map((yaw, i) => frame(i / 8, yaw, rotate(ref, yaw)));
    const p = parallaxConsistency(frames, 6, 2)!;
    expect(p.frames.length).toBe(5);
    expect(p.ratio).toBeGreaterThan(0.9);
    expect(p.ratio).toBeLessThan(1.1);
  });

  it('reads the same yaw track on a 2-D squeeze of the frontal landmarks as a warp', () => {
    const flat = rotate(ref, 0);
    const squeezed = (k: number) => flat.map(([x, y, z]) => [160 + (x! - 160) * k, y!, z!]);
    const frames = [0, 0, 0, 15, 20, 20, 0, -15, -20].map((yaw, i) =>
      frame(i / 8, yaw, yaw === 0 ? flat : squeezed(Math.cos((yaw * Math.PI) / 180))),
    );
    expect(parallaxConsistency(frames, 6, 2)!.ratio).toBeLessThan(0.05);
  });

  it('has nothing to say about a clip that never turns', () => {
    const frames = Array.from({ length: 10 }, (_, i) => frame(i / 8, 1, rotate(ref, 1)));
    expect(parallaxConsistency(frames, 6, 2)).toBeNull();
  });
});

describe('photometricConsistency', () => {
  const texture = (shift: number, noise: number) => {
    const out = new Uint8Array(THUMB_SIZE * THUMB_SIZE);
    let s = 3;
    for (let y = 0; y < THUMB_SIZE; y++)
      for (let x = 0; x < THUMB_SIZE; x++) {
        s = (s * 16807) % 2147483647;
        out[y * THUMB_SIZE + x] = Math.round(
          128 + 50 * Math.sin((x + shift) / 2.3) * Math.cos(y / 3.1) + noise * (s / 2147483647 - 0.5),
        );
      }
    return Buffer.from(out).toString('base64');
  };
  it('finds a shifted copy again (no change) and flags new content', () => {
    const yaws = [0, 0, 0, 15, 20, 20];
    const moved = yaws.map((yaw, i) => frame(i / 8, yaw, [], { faceThumb: texture(yaw / 5, 0) }));
    expect(photometricConsistency(moved, 6, 2)!.change).toBeLessThan(0.02);
    const changed = yaws.map((yaw, i) => frame(i / 8, yaw, [], { faceThumb: texture(0, yaw ? 120 : 0) }));
    expect(photometricConsistency(changed, 6, 2)!.change).toBeGreaterThan(0.2);
  });
});

describe('blinkTexture and identity', () => {
  const patch = (flat: boolean) => {
    const out = new Uint8Array(2 * EYE_PATCH.width * EYE_PATCH.height);
    for (let i = 0; i < out.length; i++) {
      const y = Math.floor(i / EYE_PATCH.width) % EYE_PATCH.height;
      out[i] = flat ? 150 : y === 7 ? 60 : 140 + ((i * 37) % 25);
    }
    return Buffer.from(out).toString('base64');
  };
  const ears = [0.3, 0.3, 0.31, 0.3, 0.1, 0.3, 0.3, 0.31];

  it('accepts a shut eye with a lash line and refuses a flat patch', () => {
    const real = ears.map((ear, i) => frame(i / 8, 0, [], { eyeAspectRatio: ear, eyePatch: patch(false) }));
    expect(blinkTexture(real, 0.72, 0.85)).toBeGreaterThan(0.9);
    const painted = ears.map((ear, i) =>
      frame(i / 8, 0, [], { eyeAspectRatio: ear, eyePatch: patch(ear < 0.2) }),
    );
    expect(blinkTexture(painted, 0.72, 0.85)).toBeLessThan(0.1);
    expect(assessConsistency(painted).reasons).toEqual(['flat_eye_patch']);
  });

  it('refuses a clip whose described frames are two people', () => {
    const a = Array.from({ length: 8 }, (_, i) => Math.sin(i + 1));
    const b = Array.from({ length: 8 }, (_, i) => Math.cos(3 * i));
    const frames = [frame(0, 0, [], { descriptor: a }), frame(1, 0, []), frame(2, 0, [], { descriptor: b })];
    const r = assessConsistency(frames);
    expect(r.identity!).toBeLessThan(defaultConsistencyOptions.minIdentitySimilarity);
    expect(r.reasons).toEqual(['identity_changed']);
    const same = assessConsistency([frame(0, 0, [], { descriptor: a }), frame(2, 0, [], { descriptor: a })]);
    expect(same.passed).toBe(true);
  });
});

describe('the passive cue', () => {
  const options: ConsistencyOptions = { ...defaultConsistencyOptions, minPassiveCue: 0.3 };
  const clip = (cues: (number | null)[]) => cues.map((passive, i) => frame(i, 0, [], { passive }));

  it('is the median over the frames that carry one', () => {
    expect(passiveCue(clip([0.9, null, 0.2, 0.8]))).toEqual({ cue: 0.8, frames: 3 });
    expect(passiveCue(clip([0.9, 0.2, 0.5, 0.8]))).toEqual({ cue: 0.65, frames: 4 });
    expect(passiveCue(clip([null, null]))).toBeNull();
  });

  it('vetoes a clip whose cue is under the floor, and only then', () => {
    expect(assessConsistency(clip([0.9, 0.1, 0.25]), options).reasons).toEqual(['passive_spoof_cue']);
    expect(assessConsistency(clip([0.9, 0.1, 0.35]), options).passed).toBe(true);
    // One frame low out of three is not enough (a blurred frame, a hand across the face).
    expect(assessConsistency(clip([0.9, 0.05, 0.8]), options).passed).toBe(true);
    expect(assessConsistency(clip([0.1, 0.1, 0.1]), { ...options, minPassiveCue: null }).passed).toBe(true);
  });

  it('reads a best frame that skipped the passive models as no cue, not as a cue of 0', () => {
    const best = (antispoof: number | null, liveness: number | null) =>
      ({ descriptor: [1, 0], antispoof, liveness }) as unknown as VideoObservation['best'][number];
    const obs = {
      durationSeconds: 2,
      frames: [frame(0, 0, []), frame(1, 0, []), frame(2, 0, [])],
      best: [best(0.9, 0.7), best(null, null), best(Number.NaN, 0.8)],
      bestTimes: [0, 1, 2],
    } as VideoObservation;
    expect(videoTrack(obs).map((f) => f.passive)).toEqual([0.7, null, null]);
  });
});

describe('warpScore', () => {
  // Warped photos centred on parallax 2, pixel change 0.1 and depth 0.5, one unit of log apart per SD.
  const options: ConsistencyOptions = {
    ...defaultConsistencyOptions,
    warpScale: {
      parallax: { logMean: Math.log(2), logSd: 1 },
      photometric: { logMean: Math.log(0.1), logSd: 1 },
      depth: { logMean: Math.log(0.5), logSd: 1 },
    },
    maxWarpZ: 3,
  };
  const e = Math.E;

  it('measures a turn in standard deviations of warped photos, averaged over the statistics', () => {
    expect(warpScore({ parallax: 2, photometric: 0.1, depth: 0.5 }, options)).toBeCloseTo(0, 9);
    expect(warpScore({ parallax: 2 * e, photometric: 0.1 * e, depth: 0.5 * e }, options)).toBeCloseTo(1, 9);
    // Low on one statistic, high on the other two: a real head seen with a small turn of its nose.
    expect(
      warpScore({ parallax: 2 * e ** 2, photometric: 0.1 * e ** 2, depth: 0.5 / e }, options),
    ).toBeCloseTo(1, 9);
  });

  it('lets no single statistic carry the score', () => {
    expect(warpScore({ parallax: Infinity, photometric: 0.1, depth: 0.5 }, options)).toBeCloseTo(1, 9);
    expect(warpScore({ parallax: 2, photometric: 0, depth: 0.5 }, options)).toBeCloseTo(-1, 9);
  });

  it('reads only the statistics that apply, and nothing when none does', () => {
    expect(warpScore({ parallax: 2 * e, photometric: null, depth: 0.5 / e }, options)).toBeCloseTo(0, 9);
    expect(warpScore({ parallax: null, photometric: null, depth: null }, options)).toBeNull();
  });
});
