import { describe, expect, it } from 'vitest';
import { LIVENESS_CHALLENGE } from '@attestly/contracts';
import { cryptoRandom, type RandomSource } from '../../../lib/random';
import { drawChallengeSteps } from './challenge';

describe('drawChallengeSteps', () => {
  it('draws two or three ordered steps with one blink and a turn, windows inside the recording', () => {
    for (let i = 0; i < 500; i++) {
      const steps = drawChallengeSteps(cryptoRandom);
      expect(steps.length).toBeGreaterThanOrEqual(2);
      expect(steps.length).toBeLessThanOrEqual(3);
      expect(steps.filter((s) => s.action === 'blink')).toHaveLength(1);
      const turns = steps.filter((s) => s.action !== 'blink').map((s) => s.action);
      if (steps.length === 3) expect([...turns].sort()).toEqual(['turn_left', 'turn_right']);
      else expect(turns).toHaveLength(1);
      expect(steps[0]!.start_seconds).toBeGreaterThanOrEqual(0.3);
      expect(steps[0]!.start_seconds).toBeLessThanOrEqual(0.7);
      for (const [index, step] of steps.entries()) {
        expect(step.end_seconds - step.start_seconds).toBeGreaterThanOrEqual(0.8);
        if (index > 0) expect(step.start_seconds).toBe(steps[index - 1]!.end_seconds);
      }
      // At least 0.3 s (less the rounding to a tenth) is left after the last window.
      expect(steps.at(-1)!.end_seconds).toBeLessThanOrEqual(LIVENESS_CHALLENGE.recordingSeconds - 0.25);
    }
  });

  it('asks every order and direction, so a clip made for one challenge answers few others', () => {
    const seen = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const key = drawChallengeSteps(cryptoRandom)
        .map((s) => s.action)
        .join(',');
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    // 2 steps: one turn (2 directions) before or after the blink = 4; 3 steps: 3! orders = 6.
    expect(seen.size).toBe(10);
    // Half the draws have two steps (each of 4 sequences ≈ 12.5 %), half three (each of 6 ≈ 8.3 %).
    for (const count of seen.values()) expect(count).toBeGreaterThan(150);
  });

  it('takes every choice from the source it is given', () => {
    const script = (values: number[]): RandomSource => {
      let i = 0;
      const next = () => values[i++ % values.length] as number;
      return { unit: next, int: (max) => Math.floor(next() * max) };
    };
    const a = drawChallengeSteps(script([0.9, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]));
    const b = drawChallengeSteps(script([0.9, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]));
    expect(a).toEqual(b);
    const c = drawChallengeSteps(script([0.1, 0.9, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]));
    expect(c).not.toEqual(a);
  });
});
