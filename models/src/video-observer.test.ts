import { describe, expect, it } from 'vitest';
import { VisionInputError } from './errors';
import type { FrameScan } from './types';
import { chooseBestFrames } from './video-observer';

const scan = (faces: number, rank: number | null, t = 0): FrameScan => ({
  frame: { timeSeconds: t, faces, yawDeg: null, pitchDeg: null, eyeAspectRatio: null, qualityScore: null },
  rank,
});

describe('best-frame choice', () => {
  it('takes the highest-ranked single-face frames, earlier frame first on ties', () => {
    const scans = [scan(1, 0.7), scan(1, 0.9), scan(0, null), scan(1, 0.9), scan(1, 0.8), scan(1, 0.7)];
    expect(chooseBestFrames(scans, 3)).toEqual([1, 3, 4]);
    expect(chooseBestFrames(scans, 5)).toEqual([1, 3, 4, 0, 5]);
  });

  it('refuses a clip without any face', () => {
    expect(() => chooseBestFrames([scan(0, null), scan(0, null)])).toThrow(VisionInputError);
  });

  it('refuses a clip where most frames show more than one face', () => {
    const e = (() => {
      try {
        chooseBestFrames([scan(2, null), scan(2, null), scan(1, 0.8)]);
      } catch (error) {
        return error as VisionInputError;
      }
    })();
    expect(e?.code).toBe('multiple_faces');
  });
});
