import type { RandomSource } from '../src/lib/random';

/**
 * A seeded random source for tests only (mulberry32), injected through deps: with it, the liveness challenges an
 * app draws are known in advance, so that a recorded clip's motions can be the ones asked. `reseed` restarts the
 * sequence, so several uploads can be asked the same challenge. The appliance itself has no such switch.
 */
export class SeededRandom implements RandomSource {
  private state = 0;
  constructor(seed: number) {
    this.reseed(seed);
  }
  reseed(seed: number): void {
    this.state = seed >>> 0;
  }
  unit(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  }
  int(maxExclusive: number): number {
    return Math.floor(this.unit() * maxExclusive);
  }
}
