import { describe, expect, it } from 'vitest';
import {
  assessQuality,
  defaultQualityGate,
  faceCropRegion,
  laplacianVariance,
  luminanceStats,
  rgbToGray,
} from './quality';
import type { QualityMetrics } from './types';

const good: QualityMetrics = {
  sharpness: 300,
  brightness: 120,
  contrast: 50,
  clippedDark: 0,
  clippedBright: 0,
  faceSize: 220,
  yawDeg: 2,
  pitchDeg: -3,
};

describe('laplacianVariance', () => {
  it('is zero on a flat image and large on a checkerboard', () => {
    const flat = new Uint8Array(32 * 32).fill(128);
    const checker = Uint8Array.from({ length: 32 * 32 }, (_, i) =>
      ((i % 32) + Math.floor(i / 32)) % 2 ? 255 : 0,
    );
    expect(laplacianVariance(flat, 32, 32)).toBe(0);
    expect(laplacianVariance(checker, 32, 32)).toBeGreaterThan(10_000);
  });

  it('drops when the same edge is blurred', () => {
    const sharp = Uint8Array.from({ length: 32 * 32 }, (_, i) => (i % 32 < 16 ? 0 : 255));
    const soft = Uint8Array.from({ length: 32 * 32 }, (_, i) =>
      Math.min(255, Math.max(0, ((i % 32) - 8) * 16)),
    );
    expect(laplacianVariance(soft, 32, 32)).toBeLessThan(laplacianVariance(sharp, 32, 32));
  });
});

describe('luminanceStats and rgbToGray', () => {
  it('reports mean, spread and clipped shares', () => {
    const s = luminanceStats(Uint8Array.from([0, 0, 255, 255]));
    expect(s.mean).toBeCloseTo(127.5);
    expect(s.std).toBeCloseTo(127.5);
    expect(s.clippedDark).toBe(0.5);
    expect(s.clippedBright).toBe(0.5);
  });

  it('weights green most in luma', () => {
    expect(Array.from(rgbToGray(Uint8Array.from([255, 0, 0, 0, 255, 0])))).toEqual([76, 150]);
  });
});

describe('faceCropRegion', () => {
  it('makes a square around the box and clamps it to the image', () => {
    expect(faceCropRegion([10, 20, 40, 60], 100, 100)).toEqual({ left: 0, top: 20, width: 60, height: 60 });
    expect(faceCropRegion([80, 80, 40, 40], 100, 100)).toEqual({ left: 80, top: 80, width: 20, height: 20 });
  });
});

describe('assessQuality', () => {
  it('passes a sharp, well-lit, frontal, large face with a high score', () => {
    const q = assessQuality(good);
    expect(q.ok).toBe(true);
    expect(q.score).toBeGreaterThan(0.7);
  });

  it.each([
    [{ sharpness: 5 }, 'blur'],
    [{ brightness: 20 }, 'too_dark'],
    [{ brightness: 240 }, 'too_bright'],
    [{ contrast: 8 }, 'low_contrast'],
    [{ faceSize: 40 }, 'face_too_small'],
    [{ yawDeg: 45 }, 'pose'],
  ] as const)('asks for a retake when %o (%s)', (patch, reason) => {
    const q = assessQuality({ ...good, ...patch });
    expect(q.ok).toBe(false);
    expect(q.reasons).toContain(reason);
    expect(q.score).toBe(0);
  });

  it('honours a custom gate', () => {
    expect(
      assessQuality({ ...good, faceSize: 100 }, { ...defaultQualityGate, minFaceSize: 150 }).reasons,
    ).toEqual(['face_too_small']);
  });
});
