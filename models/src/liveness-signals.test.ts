import { describe, expect, it } from 'vitest';
import { assessActiveLiveness, countBlinks, eyeAspectRatio, percentile } from './liveness-signals';
import type { FrameObservation } from './types';

function frames(yaws: number[], ears: number[]): FrameObservation[] {
  return yaws.map((yaw, i) => ({
    timeSeconds: i / 8,
    faces: 1,
    yawDeg: yaw,
    pitchDeg: 0,
    eyeAspectRatio: ears[i]!,
    qualityScore: 0.9,
  }));
}

describe('eyeAspectRatio', () => {
  it('is height over width of the eye contour and shrinks when the lids close', () => {
    const mesh: number[][] = Array.from({ length: 478 }, () => [0, 0]);
    const eye = (idx: number[], cx: number, open: number) => {
      const [p1, p2, p3, p4, p5, p6] = idx;
      mesh[p1!] = [cx - 10, 0];
      mesh[p4!] = [cx + 10, 0];
      mesh[p2!] = [cx - 3, -open];
      mesh[p3!] = [cx + 3, -open];
      mesh[p5!] = [cx + 3, open];
      mesh[p6!] = [cx - 3, open];
    };
    eye([33, 160, 158, 133, 153, 144], 0, 3);
    eye([362, 385, 387, 263, 373, 380], 50, 3);
    expect(eyeAspectRatio(mesh)).toBeCloseTo(0.3);
    eye([33, 160, 158, 133, 153, 144], 0, 0.5);
    eye([362, 385, 387, 263, 373, 380], 50, 0.5);
    expect(eyeAspectRatio(mesh)).toBeCloseTo(0.05);
  });

  it('returns null for an incomplete mesh', () => {
    expect(eyeAspectRatio([[0, 0]])).toBeNull();
  });
});

describe('countBlinks', () => {
  it('counts an open-closed-open dip as one blink', () => {
    const ears = [0.3, 0.31, 0.3, 0.12, 0.29, 0.3, 0.3, 0.31];
    expect(countBlinks(ears.map((ear, i) => ({ t: i / 8, ear }))).blinks).toBe(1);
  });

  it('finds no blink in a constant series with noise, as from a still photo', () => {
    const ears = Array.from({ length: 40 }, (_, i) => 0.28 + 0.01 * Math.sin(i));
    expect(countBlinks(ears.map((ear, i) => ({ t: i / 8, ear }))).blinks).toBe(0);
  });

  it('does not count eyes kept closed for seconds', () => {
    const ears = [0.3, 0.3, ...Array(16).fill(0.1), 0.3, 0.3];
    expect(countBlinks(ears.map((ear, i) => ({ t: i / 8, ear }))).blinks).toBe(0);
  });
});

describe('assessActiveLiveness', () => {
  const ears = Array.from({ length: 40 }, (_, i) => (i === 20 ? 0.1 : 0.3));
  const turn = Array.from({ length: 40 }, (_, i) => 25 * Math.sin((i / 40) * Math.PI));

  it('passes a head turn with a blink', () => {
    const r = assessActiveLiveness(frames(turn, ears));
    expect(r.passed).toBe(true);
    expect(r.blinks).toBe(1);
    expect(r.yaw.span).toBeGreaterThanOrEqual(15);
    expect(r.confidence).toBeGreaterThan(0.6);
  });

  it('fails a still face: no turn, no blink', () => {
    const r = assessActiveLiveness(frames(Array(40).fill(1), Array(40).fill(0.3)));
    expect(r.passed).toBe(false);
    expect(r.reasons).toEqual(['no_head_turn', 'no_blink']);
    expect(r.confidence).toBeLessThan(0.3);
  });

  it('fails a turn without a blink (a rotated printed photo)', () => {
    const r = assessActiveLiveness(frames(turn, Array(40).fill(0.3)));
    expect(r.passed).toBe(false);
    expect(r.reasons).toEqual(['no_blink']);
  });

  it('ignores a single outlier yaw', () => {
    const yaws = Array(40).fill(0);
    yaws[10] = 40;
    expect(assessActiveLiveness(frames(yaws, ears)).headTurn).toBe(false);
  });

  it('fails when the face is missing from most frames', () => {
    const f = frames(turn, ears).map((x, i) =>
      i % 2 ? { ...x, faces: 0, yawDeg: null, eyeAspectRatio: null } : x,
    );
    expect(assessActiveLiveness(f).reasons).toContain('face_not_visible_enough');
  });

  it('percentile interpolates', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
  });
});
