import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAnswerTiming } from './answer-timing';

describe('answer timing', () => {
  it('does not hold a quick answer before any slow one was seen', async () => {
    const timing = createAnswerTiming();
    const started = timing.start();
    await timing.quick(started);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('holds a quick answer until it has taken as long as a recent slow one', async () => {
    const timing = createAnswerTiming();
    let started = timing.start();
    await sleep(80);
    timing.slow(started);
    started = timing.start();
    await timing.quick(started);
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });

  it('draws the hold from the recent slow answers, forgetting the oldest', async () => {
    const timing = createAnswerTiming(2);
    for (const ms of [1500, 40, 40]) {
      const started = timing.start() - ms;
      timing.slow(started);
    }
    // The 1.5 s answer has left the window of two: every hold is now about 40 ms.
    for (let round = 0; round < 5; round += 1) {
      const started = timing.start();
      await timing.quick(started);
      const took = performance.now() - started;
      expect(took).toBeGreaterThanOrEqual(35);
      expect(took).toBeLessThan(1000);
    }
  });

  it('never holds an answer longer than two seconds', async () => {
    const timing = createAnswerTiming();
    timing.slow(timing.start() - 60_000);
    const started = timing.start() - 1_900;
    await timing.quick(started);
    expect(performance.now() - started).toBeLessThan(2_500);
  });
});
