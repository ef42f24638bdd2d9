import { randomInt } from 'node:crypto';

/**
 * Where unpredictable choices come from (liveness challenges). The appliance always uses the operating system's
 * CSPRNG; a test may pass a seeded source through `deps` (never through configuration), so that a recorded clip's
 * motions are the ones asked.
 */
export interface RandomSource {
  /** A uniform integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  /** A uniform number in [0, 1). */
  unit(): number;
}

const UNIT_STEPS = 2 ** 48 - 1;

export const cryptoRandom: RandomSource = {
  int: (maxExclusive) => randomInt(maxExclusive),
  unit: () => randomInt(UNIT_STEPS) / UNIT_STEPS,
};
