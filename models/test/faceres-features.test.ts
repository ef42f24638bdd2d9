import { describe, expect, it } from 'vitest';
import { applyAgeHead, featureVector, type AgeHeadWeights } from '../src/age-head';
import { decodeImage } from '../src/image-decode';
import { AGE_FEATURE_SIZE, humanAgeFromSoftmax } from '../src/faceres-features';
import { observeSubject } from '../src/face-observer';
import { createHumanRuntime, type HumanTensor } from '../src/human-runtime';
import { adultFemale30s, adultMale40s, fixture } from './media';

describe("faceres run by the engine (one pass, Human's outputs plus the age features)", () => {
  it("gives Human's own descriptor and age bit for bit, the 3,172 age features, and leaks no tensor", async () => {
    const runtime = await createHumanRuntime('wasm');
    const { human } = runtime;
    for (const name of [adultMale40s, adultFemale30s]) {
      const image = await decodeImage(new Uint8Array(fixture(name)));
      // The face-match pass: faceres only (the age networks have their own test, age-cnn.test.ts), so the
      // observation's age is faceres's. Warm once so that lazily created tensors do not count as a leak.
      const faceresOnly = { age: false, identity: true };
      await observeSubject(runtime, image, 'describe', faceresOnly);
      const before = human.tf.memory().numTensors;
      const obs = await observeSubject(runtime, image, 'describe', faceresOnly);
      const frame = await observeSubject(runtime, image, 'describe');
      expect(human.tf.memory().numTensors).toBe(before);
      expect(obs.ageFeatures).toHaveLength(AGE_FEATURE_SIZE);
      expect(obs.ageFeatures.every(Number.isFinite)).toBe(true);
      // The softmax closes the layout: it sums to 1.
      const softmax = obs.ageFeatures.slice(-100);
      expect(softmax.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 4);
      expect(obs.modelAge).toBe(humanAgeFromSoftmax(softmax));
      // A video frame's pass runs the same faceres beside the age networks.
      expect(frame.descriptor).toEqual(obs.descriptor);
      expect(frame.ageFeatures).toEqual(obs.ageFeatures);

      // Human's own faceres run on the same image, for comparison.
      const config = {
        face: {
          detector: { return: false },
          description: { enabled: true },
          antispoof: { enabled: false },
          liveness: { enabled: false },
        },
      };
      // (Same Human instance: a second one would register the file router twice in this thread.)
      const human2 = human;
      await (human2 as unknown as { load(c: unknown): Promise<void> }).load(config);
      const t3 = human2.tf.tensor3d(Float32Array.from(image.data), [image.height, image.width, 3], 'float32');
      const input: HumanTensor = human2.tf.expandDims(t3, 0);
      t3.dispose();
      const result = await human2.detect(input, config);
      input.dispose();
      expect(result.face).toHaveLength(1);
      expect(obs.descriptor).toEqual(result.face[0]!.embedding);
      expect(obs.modelAge).toBe(result.face[0]!.age);
    }
  }, 120_000);
});

describe('age head feature sets', () => {
  const obs = {
    descriptor: [0.5, 0.25],
    modelAge: 30,
    ageFeatures: Array.from({ length: AGE_FEATURE_SIZE }, (_, i) => i / AGE_FEATURE_SIZE),
  };
  it('reads the descriptor and age, or the age features before them', () => {
    expect(featureVector(obs)).toEqual([0.5, 0.25, 30]);
    const rich = featureVector(obs, 'faceres-blocks-9-11+softmax+descriptor+age');
    expect(rich).toHaveLength(AGE_FEATURE_SIZE + 3);
    expect(rich.slice(AGE_FEATURE_SIZE)).toEqual([0.5, 0.25, 30]);
    expect(rich[1]).toBe(1 / AGE_FEATURE_SIZE);
  });
  it('refuses an observation without the age features, or a head of another width', () => {
    expect(() =>
      featureVector({ descriptor: [1], modelAge: 20 }, 'faceres-blocks-9-11+softmax+descriptor+age'),
    ).toThrow(/3172 faceres age features/);
    const weights = {
      features: 'faceres-descriptor-1024+faceres-age',
      feature_mean: [0, 0],
      feature_std: [1, 1],
      ridge: { w: [1, 1], b: 0, residual_sd: 1 },
      heads: {},
    } as unknown as AgeHeadWeights;
    expect(() => applyAgeHead(weights, obs)).toThrow(/expects 2 features, got 3/);
  });
});

describe("Human's age read-out of the softmax", () => {
  it('interpolates towards the larger neighbour of the argmax bin', () => {
    const p = new Array(100).fill(0);
    p[20] = 0.6;
    p[21] = 0.3;
    p[19] = 0.1;
    expect(humanAgeFromSoftmax(p)).toBe(23); // 10·20/10 + 100·0.3/10 = 2 + 30 → (200 + 30)/10
    p[19] = 0.35;
    expect(humanAgeFromSoftmax(p)).toBe(16.5); // (200 − 35)/10
  });
});
