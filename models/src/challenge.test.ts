import { describe, expect, it } from 'vitest';
import {
  challengeMessage,
  checkChallenge,
  defaultChallengeCheckOptions,
  type ChallengeStep,
} from './challenge';
import type { ChallengeTrackPoint } from './types';

const FPS = 8;
const OPEN = 0.3;
const CLOSED = 0.12;
/** Yaw of a turn to the person's own left, in Human's sign convention. */
const LEFT = 25 * defaultChallengeCheckOptions.leftYawSign;
const RIGHT = -LEFT;

interface Motion {
  /** A head turn held from `from` to `to` seconds (ramping in and out over one frame each side). */
  turn?: { yaw: number; from: number; to: number };
  /** A blink: eyes closed for one frame at this time. */
  blinkAt?: number;
}

/** A 5-second track at the decoder's 8 frames per second: a neutral face with the given motions. */
function track(
  motions: Motion[],
  options: { seconds?: number; neutral?: number } = {},
): ChallengeTrackPoint[] {
  const seconds = options.seconds ?? 5;
  const neutral = options.neutral ?? 3;
  const points: ChallengeTrackPoint[] = [];
  for (let i = 0; i < seconds * FPS; i++) {
    const t = i / FPS;
    let yaw = neutral;
    let ear = OPEN + 0.01 * Math.sin(i);
    for (const m of motions) {
      if (m.turn && t >= m.turn.from && t <= m.turn.to) yaw = neutral + m.turn.yaw;
      if (m.blinkAt !== undefined && Math.abs(t - m.blinkAt) < 0.5 / FPS) ear = CLOSED;
    }
    points.push({ t, yaw, ear });
  }
  return points;
}

const leftRightBlink: ChallengeStep[] = [
  { action: 'turn_left', start_seconds: 0.5, end_seconds: 2 },
  { action: 'turn_right', start_seconds: 2, end_seconds: 3.5 },
  { action: 'blink', start_seconds: 3.5, end_seconds: 5 },
];

describe('checkChallenge', () => {
  it('passes a clip whose turns and blink come in the asked order inside their windows', () => {
    const result = checkChallenge(
      track([
        { turn: { yaw: LEFT, from: 1, to: 1.6 } },
        { turn: { yaw: RIGHT, from: 2.5, to: 3 } },
        { blinkAt: 4.25 },
      ]),
      leftRightBlink,
    );
    expect(result.passed).toBe(true);
    expect(result.steps.map((s) => s.action)).toEqual(['turn_left', 'turn_right', 'blink']);
    expect(result.steps.every((s) => s.problem === null)).toBe(true);
    expect(result.steps[0]!.at).toBeGreaterThanOrEqual(1);
    expect(result.steps[2]!.at).toBeCloseTo(4.3, 1);
    expect(result.neutralYaw).toBe(3);
  });

  it('measures turns from the person’s own neutral pose, not from zero', () => {
    const offset = 18 * defaultChallengeCheckOptions.leftYawSign;
    const clip = track(
      [
        { turn: { yaw: LEFT, from: 1, to: 1.6 } },
        { turn: { yaw: RIGHT, from: 2.5, to: 3 } },
        { blinkAt: 4.25 },
      ],
      { neutral: offset },
    );
    expect(checkChallenge(clip, leftRightBlink).passed).toBe(true);
  });

  it('refuses the right motions in the wrong order', () => {
    const result = checkChallenge(
      track([
        { turn: { yaw: RIGHT, from: 1, to: 1.6 } },
        { turn: { yaw: LEFT, from: 2.75, to: 3.25 } },
        { blinkAt: 4.25 },
      ]),
      leftRightBlink,
    );
    expect(result.passed).toBe(false);
    expect(result.steps[0]).toMatchObject({ action: 'turn_left', passed: false, problem: 'wrong_direction' });
    expect(result.steps[1]).toMatchObject({
      action: 'turn_right',
      passed: false,
      problem: 'wrong_direction',
    });
    expect(result.steps[2]).toMatchObject({ action: 'blink', passed: true });
  });

  it('refuses a blink before a turn when the turn was asked first, even inside overlapping tolerances', () => {
    const steps: ChallengeStep[] = [
      { action: 'turn_left', start_seconds: 0.5, end_seconds: 2.5 },
      { action: 'blink', start_seconds: 2.5, end_seconds: 4.5 },
    ];
    // The blink at 2.1 s and the turn at 2.6–3.2 s: each is inside the other's window once tolerance widens them,
    // but the turn (asked first) only starts after the blink window's motion, and the blink came before it.
    const result = checkChallenge(
      track([{ blinkAt: 2.1 }, { turn: { yaw: LEFT, from: 2.6, to: 3.2 } }]),
      steps,
    );
    expect(result.passed).toBe(false);
    expect(result.steps[0]).toMatchObject({ passed: true });
    expect(result.steps[1]).toMatchObject({ action: 'blink', passed: false, problem: 'out_of_order' });
  });

  it('refuses a motion outside its window beyond the tolerance, and accepts one just inside it', () => {
    const steps: ChallengeStep[] = [
      { action: 'blink', start_seconds: 0.5, end_seconds: 1.5 },
      { action: 'turn_right', start_seconds: 3, end_seconds: 4.5 },
    ];
    const late = checkChallenge(
      track([{ blinkAt: 2.25 }, { turn: { yaw: RIGHT, from: 3.5, to: 4 } }]),
      steps,
    );
    expect(late.passed).toBe(false);
    expect(late.steps[0]).toMatchObject({ action: 'blink', problem: 'not_seen' });

    const tolerated = checkChallenge(
      track([{ blinkAt: 1.875 }, { turn: { yaw: RIGHT, from: 3.5, to: 4 } }]),
      steps,
    );
    expect(tolerated.passed).toBe(true);

    const early = checkChallenge(
      track([{ blinkAt: 1 }, { turn: { yaw: RIGHT, from: 1.5, to: 2.25 } }]),
      steps,
    );
    expect(early.passed).toBe(false);
    expect(early.steps[1]).toMatchObject({ action: 'turn_right', problem: 'not_seen' });
  });

  it('refuses a turn the wrong way', () => {
    const steps: ChallengeStep[] = [
      { action: 'turn_right', start_seconds: 0.5, end_seconds: 2.5 },
      { action: 'blink', start_seconds: 2.5, end_seconds: 4.5 },
    ];
    const result = checkChallenge(
      track([{ turn: { yaw: LEFT, from: 1, to: 1.8 } }, { blinkAt: 3.5 }]),
      steps,
    );
    expect(result.passed).toBe(false);
    expect(result.steps[0]).toMatchObject({ action: 'turn_right', problem: 'wrong_direction' });
  });

  it('refuses a clip with no blink where one was asked', () => {
    const steps: ChallengeStep[] = [
      { action: 'turn_left', start_seconds: 0.5, end_seconds: 2.5 },
      { action: 'blink', start_seconds: 2.5, end_seconds: 4.5 },
    ];
    const result = checkChallenge(track([{ turn: { yaw: LEFT, from: 1, to: 1.8 } }]), steps);
    expect(result.passed).toBe(false);
    expect(result.steps[1]).toMatchObject({ action: 'blink', passed: false, problem: 'not_seen' });
  });

  it('does not count a head held turned from the start, nor a return to the middle from the other side', () => {
    const steps: ChallengeStep[] = [
      { action: 'turn_left', start_seconds: 0.5, end_seconds: 2.5 },
      { action: 'blink', start_seconds: 2.5, end_seconds: 4.5 },
    ];
    const held = checkChallenge(track([{ turn: { yaw: LEFT, from: 0, to: 2.5 } }, { blinkAt: 3.5 }]), steps);
    expect(held.steps[0]).toMatchObject({ passed: false });
    // Turned right, then back to the middle inside the left-turn window: movement leftwards, but never to the left.
    const back = checkChallenge(
      track([{ turn: { yaw: RIGHT, from: 0.5, to: 1.5 } }, { blinkAt: 3.5 }]),
      steps,
    );
    expect(back.steps[0]).toMatchObject({ passed: false, problem: 'wrong_direction' });
  });

  it('refuses a still clip and a clip without a face', () => {
    expect(checkChallenge(track([]), leftRightBlink).passed).toBe(false);
    const faceless = track([]).map((p) => ({ t: p.t, yaw: null, ear: null }));
    const result = checkChallenge(faceless, leftRightBlink);
    expect(result.passed).toBe(false);
    expect(result.neutralYaw).toBeNull();
    expect(result.steps.every((s) => s.problem === 'not_seen')).toBe(true);
  });

  it('refuses a recording that turns where no step asks for it: one swinging both ways answers nothing', () => {
    // A head swinging left and right every second and blinking every half second: every window holds a turn each
    // way and a blink, so before unasked turns counted it answered every challenge drawn.
    const swinging: ChallengeTrackPoint[] = Array.from({ length: 5 * FPS }, (_, i) => ({
      t: i / FPS,
      yaw: 3 + 20 * Math.sin((2 * Math.PI * i) / FPS),
      ear: i % (FPS / 2) === 2 ? CLOSED : OPEN,
    }));
    const result = checkChallenge(swinging, leftRightBlink);
    expect(result.steps.every((s) => s.passed)).toBe(true);
    expect(result.passed).toBe(false);
    expect(result.unaskedTurns.map((u) => u.action)).toContain('turn_left');
    expect(result.unaskedTurns.map((u) => u.action)).toContain('turn_right');
    expect(challengeMessage(result)).toMatch(/turned (left|right) when that was not asked/);
    // An answer to "left, right, blink" replayed for "left, blink" shows a right turn nobody asked for.
    const answer = track([
      { turn: { yaw: LEFT, from: 1, to: 1.6 } },
      { turn: { yaw: RIGHT, from: 2.5, to: 3 } },
      { blinkAt: 4.25 },
    ]);
    expect(checkChallenge(answer, leftRightBlink)).toMatchObject({ passed: true, unaskedTurns: [] });
    const leftBlink: ChallengeStep[] = [
      { action: 'turn_left', start_seconds: 0.5, end_seconds: 2.5 },
      { action: 'blink', start_seconds: 2.5, end_seconds: 4.5 },
    ];
    const other = checkChallenge(answer, leftBlink);
    expect(other.steps.every((s) => s.passed)).toBe(true);
    expect(other.passed).toBe(false);
    expect(other.unaskedTurns).toEqual([{ action: 'turn_right', at: 2.5 }]);
  });

  it('does not count a glance or the return to the middle after an asked turn, nor a blink outside its window', () => {
    // A glance to the right of less than half the asked left turn's 25° (the person's own), then the asked turn.
    const glance = checkChallenge(
      track([
        { turn: { yaw: RIGHT * 0.4, from: 0.25, to: 0.5 } },
        { turn: { yaw: LEFT, from: 1.2, to: 1.8 } },
        { blinkAt: 3.5 },
      ]),
      [
        { action: 'turn_left', start_seconds: 0.8, end_seconds: 2.5 },
        { action: 'blink', start_seconds: 2.5, end_seconds: 4.5 },
      ],
    );
    expect(glance).toMatchObject({ passed: true, unaskedTurns: [] });
    const result = checkChallenge(
      track([
        { turn: { yaw: LEFT, from: 1, to: 1.6 } },
        { turn: { yaw: RIGHT, from: 2.5, to: 3 } },
        { blinkAt: 0.25 },
        { blinkAt: 4.25 },
      ]),
      leftRightBlink,
    );
    expect(result).toMatchObject({ passed: true, unaskedTurns: [] });
  });

  it('refuses an empty challenge', () => {
    expect(checkChallenge(track([{ blinkAt: 2 }]), []).passed).toBe(false);
  });
});
