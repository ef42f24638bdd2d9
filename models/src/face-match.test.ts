import { describe, expect, it } from 'vitest';
import { cosineSimilarity, decideFaceMatch, defaultFaceMatchConfig, humanSimilarity } from './face-match';

const unit = (i: number, n = 8) => Array.from({ length: n }, (_, j) => (j === i ? 1 : 0));

describe('face match', () => {
  it('scores identical descriptors 1 and ignores their length', () => {
    const a = [0.2, 0.5, 0, 1.3];
    expect(cosineSimilarity(a, a)).toBeCloseTo(1, 10);
    expect(
      cosineSimilarity(
        a,
        a.map((v) => v * 7),
      ),
    ).toBeCloseTo(1, 10);
  });

  it('scores orthogonal non-negative descriptors 0 and an all-zero descriptor 0', () => {
    expect(cosineSimilarity(unit(0), unit(1))).toBe(0);
    expect(cosineSimilarity(unit(0), new Array(8).fill(0))).toBe(0);
  });

  it('refuses descriptors of different lengths', () => {
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(/length/);
  });

  it("reproduces Human's similarity: 1 for identical, lower the farther apart", () => {
    expect(humanSimilarity([0.1, 0.2], [0.1, 0.2])).toBe(1);
    // Euclidean distance 7.07 → (1 − √(25·50)/100 − 0.2) / 0.6 = 0.74; distance 14.1 → 0.15.
    expect(humanSimilarity([10, 0], [5, 5])).toBeCloseTo(0.74, 2);
    expect(humanSimilarity([10, 0], [0, 10])).toBeCloseTo(0.15, 2);
  });

  it('calls a match only at or above the threshold and says so', () => {
    const a = [1, 0];
    const near = [Math.cos(0.3), Math.sin(0.3)]; // cosine 0.955
    const far = [Math.cos(1), Math.sin(1)]; // cosine 0.540
    const yes = decideFaceMatch({ descriptor: a }, { descriptor: near }, [true, true]);
    expect(yes).toMatchObject({
      match: true,
      threshold: defaultFaceMatchConfig.threshold,
      quality_ok: [true, true],
    });
    expect(yes.similarity).toBeCloseTo(0.955, 3);
    expect(yes.message).toMatch(/same person/);
    const no = decideFaceMatch({ descriptor: a }, { descriptor: far }, [true, false]);
    expect(no.match).toBe(false);
    expect(no.message).toMatch(/do not appear/);
    expect(
      decideFaceMatch({ descriptor: a }, { descriptor: far }, [true, true], { threshold: 0.5 }).match,
    ).toBe(true);
  });
});
