import { describe, expect, it } from 'vitest';
import { blockShifts, depthResidual } from './depth-parallax';
import { THUMB_SIZE } from './track-features';

/** A textured grey image, sampled through an inverse map (output pixel → source position). */
function render(map: (x: number, y: number) => [number, number]): Uint8Array {
  const out = new Uint8Array(THUMB_SIZE * THUMB_SIZE);
  for (let y = 0; y < THUMB_SIZE; y++)
    for (let x = 0; x < THUMB_SIZE; x++) {
      const [u, v] = map(x, y);
      out[y * THUMB_SIZE + x] = Math.round(
        128 + 45 * Math.sin(u / 1.9 + Math.cos(v / 2.7)) + 35 * Math.cos(v / 2.2 - Math.sin(u / 3.3)),
      );
    }
  return out;
}

const c = THUMB_SIZE / 2;
const reference = render((x, y) => [x, y]);

describe('depthResidual', () => {
  it('finds the shift of each block to within a fraction of a pixel', () => {
    const shifted = render((x, y) => [x - 2.4, y + 1]);
    const shifts = blockShifts(reference, shifted, THUMB_SIZE);
    expect(shifts.length).toBeGreaterThan(40);
    const dxs = shifts.map((s) => s.dx).sort((a, b) => a - b);
    expect(dxs[Math.floor(dxs.length / 2)]).toBeCloseTo(-2.4, 0);
    const dys = shifts.map((s) => s.dy).sort((a, b) => a - b);
    expect(dys[Math.floor(dys.length / 2)]).toBeCloseTo(1, 0);
  });

  it('counts only blocks that match at 0.8 or better unless asked otherwise', () => {
    // The same picture shifted and overlaid with noise: some blocks still match well, others only loosely.
    let seed = 7;
    const noise = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 90;
    const noisy = render((x, y) => [x - 1.5, y]).map((v) => Math.max(0, Math.min(255, v + noise())));
    const strict = blockShifts(reference, noisy, THUMB_SIZE);
    const loose = blockShifts(reference, noisy, THUMB_SIZE, 0.7);
    expect(strict.length).toBeGreaterThan(0);
    expect(Math.min(...strict.map((s) => s.ncc))).toBeGreaterThanOrEqual(0.8);
    expect(loose.some((s) => s.ncc < 0.8)).toBe(true);
    expect(loose.length).toBeGreaterThan(strict.length);
  });

  it('is near zero when pixels move by their column alone (a photo wrapped on a cylinder and turned)', () => {
    const R = 20;
    const cylinder = render((x, y) => {
      const phi = Math.asin(Math.max(-1, Math.min(1, (x - c) / R))) - 0.3;
      return [Math.abs(x - c) >= R ? x : c + R * Math.sin(phi), y];
    });
    const residual = depthResidual(blockShifts(reference, cylinder, THUMB_SIZE));
    expect(residual).not.toBeNull();
    expect(residual!).toBeLessThan(0.45);
    // A squeeze on one side of the centre line and a stretch on the other, with the box tilted and rescaled.
    const piecewise = render((x, y) => [
      (x < c ? c - (c - x) / 0.7 : c + (x - c) / 1.3) + 0.04 * (y - c),
      c + (y - c) * 0.95,
    ]);
    expect(depthResidual(blockShifts(reference, piecewise, THUMB_SIZE))!).toBeLessThan(0.45);
  });

  it('is larger when a point moves by its depth: a nose in the middle rows shifts 5 px further than the brow above it', () => {
    const nose = render((x, y) => {
      const depth = Math.exp(-((x - c) ** 2) / 60 - (y - c - 4) ** 2 / 40);
      return [x - 1 - 5 * depth, y];
    });
    expect(depthResidual(blockShifts(reference, nose, THUMB_SIZE))!).toBeGreaterThan(0.6);
  });
});
