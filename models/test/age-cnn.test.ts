import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import manifestJson from '../manifest.json' with { type: 'json' };
import {
  AGE_CNN_FILES,
  AGE_CNN_OUTPUT,
  ageCnnDir,
  ageCnnFeatures,
  ageCnnSize,
  expectedAge,
  loadAgeCnn,
  runAgeCnn,
} from '../src/age-cnn';
import { ageModelsRead } from '../src/age-head';
import { ModelIntegrityError } from '../src/errors';
import type { FaceresTensor, FaceresTf } from '../src/faceres-features';
import { observeSubject } from '../src/face-observer';
import { createHumanRuntime, type HumanRuntime } from '../src/human-runtime';
import { decodeImage } from '../src/image-decode';
import { OWN_PACKAGE, verifyManifest, type ModelManifest } from '../src/manifest';
import { adultMale40s, fixture, fixturesDir } from './media';

/**
 * The golden outputs were computed by PyTorch (models/training/train_age_cnn.py) from the float16-rounded weights
 * that the committed graphs hold, on the production crops of the four FairFace fixtures (age-crops.u8: Human's
 * aligned crop resized to the networks' input size, 160 px today, by the engine's own resize, as uint8).
 */
const crops = fixture('age-crops.u8');
const golden = (m: string) =>
  JSON.parse(fs.readFileSync(path.join(fixturesDir, `age-cnn-golden-${m}.json`), 'utf8')) as {
    fixture_sha256: string;
    probs: number[][];
  };

describe('age networks (faceres fine-tuned for age, TensorFlow.js graphs)', () => {
  // One runtime per thread: a second one would register Human's file router twice.
  let runtime: HumanRuntime;
  beforeAll(async () => {
    runtime = await createHumanRuntime('wasm', ageModelsRead('faceres-age-cnn-ab'));
  }, 120_000);

  it('give the training framework’s outputs on the fixture crops (max abs difference below 1e-4)', async () => {
    const tf = runtime.human.tf as unknown as FaceresTf & {
      tensor4d(v: Float32Array, shape: number[]): FaceresTensor;
    };
    const models = runtime.ageCnn;
    expect(models).toHaveLength(AGE_CNN_FILES.length);
    // The fixture holds the four faces at the graphs' own input size (160 px today; train:age-model --size makes
    // both again together).
    const size = ageCnnSize(models[0]!);
    const per = size * size * 3;
    const n = crops.length / per;
    expect(n).toBe(4);
    let worst = 0;
    for (const [k, model] of models.entries()) {
      const g = golden(AGE_CNN_FILES[k]!.replace(/^faceres-age-|\.json$/g, ''));
      expect(g.fixture_sha256).toBe(createHash('sha256').update(crops).digest('hex'));
      for (let i = 0; i < n; i++) {
        const x = tf.tensor4d(Float32Array.from(crops.subarray(i * per, (i + 1) * per)), [1, size, size, 3]);
        const out = model.execute(x, [AGE_CNN_OUTPUT]);
        const y = Array.isArray(out) ? out[0]! : out;
        const p = await y.data();
        x.dispose();
        y.dispose();
        for (let j = 0; j < 100; j++) worst = Math.max(worst, Math.abs(p[j]! - g.probs[i]![j]!));
      }
    }
    expect(worst).toBeLessThan(1e-4);
  }, 120_000);

  it('load the networks a head names, in its order', async () => {
    const tf = runtime.human.tf as unknown as FaceresTf & {
      tensor4d(v: Float32Array, shape: number[]): FaceresTensor;
    };
    const [b] = await loadAgeCnn(tf, ['b']);
    expect(await loadAgeCnn(tf, [])).toEqual([]);
    const size = ageCnnSize(b!);
    const x = tf.tensor4d(Float32Array.from(crops.subarray(0, size * size * 3)), [1, size, size, 3]);
    const out = b!.execute(x, [AGE_CNN_OUTPUT]);
    const y = Array.isArray(out) ? out[0]! : out;
    const p = Array.from(await y.data());
    for (const t of [x, y]) t.dispose();
    b!.dispose();
    const worst = Math.max(...p.map((v, j) => Math.abs(v - golden('b').probs[0]![j]!)));
    expect(worst).toBeLessThan(1e-4);
    // Network a's output differs on the same crop: the file loaded is b's, not the first one.
    expect(Math.max(...p.map((v, j) => Math.abs(v - golden('a').probs[0]![j]!)))).toBeGreaterThan(1e-3);
  }, 120_000);

  it('average both networks over the crop and its mirror image, or over the crop alone', async () => {
    const tf = runtime.human.tf as unknown as FaceresTf & {
      tensor4d(v: Float32Array, shape: number[]): FaceresTensor;
      div(t: FaceresTensor, v: number): FaceresTensor;
    };
    const models = runtime.ageCnn;
    const size = ageCnnSize(models[0]!);
    const per = size * size * 3;
    const run = async (model: (typeof models)[number], x: FaceresTensor) => {
      const out = model.execute(x, [AGE_CNN_OUTPUT]);
      const y = Array.isArray(out) ? out[0]! : out;
      const p = Array.from(await y.data());
      y.dispose();
      return p;
    };
    for (let i = 0; i < 2; i++) {
      const x = tf.tensor4d(Float32Array.from(crops.subarray(i * per, (i + 1) * per)), [1, size, size, 3]);
      const mirror = tf.reverse(x, 2);
      const expected = new Array<number>(100).fill(0);
      const cropOnly = new Array<number>(100).fill(0);
      for (const model of models) {
        for (const input of [x, mirror]) {
          const p = await run(model, input);
          p.forEach((v, j) => (expected[j]! += v / (2 * models.length)));
          if (input === x) p.forEach((v, j) => (cropOnly[j]! += v / models.length));
        }
      }
      // The engine's input: Human's crop in 0–1 (already at the networks' size here, so its resize changes nothing).
      const crop = tf.div(x, 255);
      const mean = await runAgeCnn(tf, models, crop);
      const meanOfCrop = await runAgeCnn(tf, models, crop, false);
      for (const t of [x, mirror, crop]) t.dispose();
      for (let j = 0; j < 100; j++) expect(mean[j]).toBeCloseTo(expected[j]!, 5);
      for (let j = 0; j < 100; j++) expect(meanOfCrop[j]).toBeCloseTo(cropOnly[j]!, 5);
      // The mirror image is a different input: the two means differ.
      expect(Math.max(...mean.map((v, j) => Math.abs(v - meanOfCrop[j]!)))).toBeGreaterThan(1e-4);
    }
  }, 120_000);

  it('age a photo without faceres, and give the descriptor only where faces are compared, leaking no tensor', async () => {
    const image = await decodeImage(new Uint8Array(fixture(adultMale40s)));
    await observeSubject(runtime, image, 'full');
    const before = runtime.human.tf.memory().numTensors;
    const photo = await observeSubject(runtime, image, 'full');
    const frame = await observeSubject(runtime, image, 'describe');
    const match = await observeSubject(runtime, image, 'describe', { age: false, identity: true });
    expect(runtime.human.tf.memory().numTensors).toBe(before);
    expect(photo.descriptor).toEqual([]);
    expect(photo.ageDistribution).toHaveLength(100);
    expect(photo.ageDistribution!.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 4);
    expect(photo.modelAge).toBeCloseTo(expectedAge(photo.ageDistribution!), 6);
    // The same crop reaches the age networks in both passes.
    expect(frame.ageDistribution).toEqual(photo.ageDistribution);
    expect(frame.descriptor).toHaveLength(1024);
    expect(match.ageDistribution).toBeUndefined();
    expect(match.descriptor).toEqual(frame.descriptor);
  }, 120_000);

  it('are listed in the manifest, which refuses a changed weight file', () => {
    const manifest = manifestJson as ModelManifest;
    const own = manifest.files.filter((f) => f.package === OWN_PACKAGE);
    expect(own.map((f) => path.basename(f.path)).sort()).toEqual(
      AGE_CNN_FILES.flatMap((f) => [f, f.replace(/\.json$/, '.bin')]).sort(),
    );
    expect(() => verifyManifest({ ...manifest, files: own })).not.toThrow();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attestly-age-cnn-'));
    fs.copyFileSync(path.join(ageCnnDir(), '../package.json'), path.join(dir, 'package.json'));
    fs.mkdirSync(path.join(dir, 'weights'));
    for (const f of own)
      fs.copyFileSync(path.join(ageCnnDir(), path.basename(f.path)), path.join(dir, f.path));
    expect(() => verifyManifest({ ...manifest, files: own }, () => dir)).not.toThrow();
    const bin = path.join(dir, own.find((f) => f.path.endsWith('.bin'))!.path);
    const bytes = fs.readFileSync(bin);
    const at = bytes.length - 2;
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0x01, at); // one bit of one float16 weight
    fs.writeFileSync(bin, bytes);
    expect(() => verifyManifest({ ...manifest, files: own }, () => dir)).toThrow(ModelIntegrityError);
  });
});

describe('age network features', () => {
  it('read the expected age and the log-odds of each "age ≥ t" boundary', () => {
    const p = new Array<number>(100).fill(0);
    p[17] = 0.5;
    p[19] = 0.5;
    const [age, ...logOdds] = ageCnnFeatures(p);
    expect(age).toBe(18);
    // P(≥13) = P(≥16) = 1 and P(≥21) = P(≥25) = 0, whose log-odds are clamped to ±12; P(≥18) = 0.5.
    expect(logOdds).toEqual([12, 12, expect.closeTo(0, 9), -12, -12]);
    expect(() => ageCnnFeatures([1])).toThrow(/100 bins/);
  });
});
