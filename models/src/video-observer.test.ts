import { describe, expect, it } from 'vitest';
import { VisionInputError } from './errors';
import type { FrameScan } from './types';
import { chooseBestFrames } from './video-observer';

const scan = (faces: number, rank: number | null, t = 0): FrameScan => ({
  frame: { timeSeconds: t, faces, yawDeg: null, pitchDeg: null, eyeAspectRatio: null, qualityScore: null },
  rank,
});

describe('best-frame choice', () => {
  it('takes the best single-face frame of each stretch of the clip, earlier frame first on ties', () => {
    const scans = [scan(1, 0.7), scan(1, 0.9), scan(0, null), scan(1, 0.9), scan(1, 0.8), scan(1, 0.7)];
    expect(chooseBestFrames(scans, 3)).toEqual([1, 3, 4]);
    // Five stretches of 6 frames: [0] [1] [2: no face] [3] [4, 5]; the faceless stretch's place goes to the best
    // frame not yet taken.
    expect(chooseBestFrames(scans, 5)).toEqual([0, 1, 3, 4, 5]);
  });

  it('spreads the frames over the clip so a cross-fade cannot hide in one end', () => {
    const scans = [scan(1, 0.9), scan(1, 0.95), scan(1, 0.99), scan(1, 0.5), scan(1, 0.4), scan(1, 0.3)];
    // The three best overall (2, 1, 0) all lie in the first half; one per third is taken instead.
    expect(chooseBestFrames(scans, 3)).toEqual([1, 2, 4]);
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
