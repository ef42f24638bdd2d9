import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/** Longest a quick answer is held back: beyond it an outlier (a stalled database) would only slow honest users. */
const MAX_HOLD_MS = 2000;

/**
 * Makes two branches of one request take the same time when the branch taken must stay secret.
 *
 * A sign-up for a new address creates the account, a token, a mail and two audit entries; one for a taken address
 * only mails its owner. Doing "comparable work" narrows the gap but cannot close it: on a loaded database every
 * extra write costs more, and CI once measured the taken-address answer at under half the new-address one. So the
 * slow branch reports how long it took, and the quick branch waits until it has taken as long as a recent slow answer
 * picked at random. The quick branch's times then follow the slow branch's own distribution, under whatever load
 * the appliance is, without a fixed floor that would be too long when quiet and too short when busy. Per process:
 * each replica learns from its own answers. Start the clock where the branches part, after the work both do (the
 * password hash): a quick answer ends at the later of its own work and the drawn time, so the less of its own work
 * the clock covers, the less that skews it slower than the slow branch.
 */
export function createAnswerTiming(size = 32) {
  const recent: number[] = [];
  let next = 0;
  return {
    /** A clock reading to pass to `slow` or `quick` once the branch is done. */
    start: () => performance.now(),
    /** The slow branch finished: how long it took joins the sample. */
    slow(startedAt: number): void {
      recent[next] = performance.now() - startedAt;
      next = (next + 1) % size;
    },
    /** The quick branch finished: waits until it has taken as long as a recent slow answer. */
    async quick(startedAt: number): Promise<void> {
      if (recent.length === 0) return;
      const target = Math.min(recent[randomInt(recent.length)] as number, MAX_HOLD_MS);
      const wait = target - (performance.now() - startedAt);
      if (wait > 0) await sleep(wait);
    },
  };
}
export type AnswerTiming = ReturnType<typeof createAnswerTiming>;
