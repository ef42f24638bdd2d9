import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ageModelsRead } from '../src/age-head';
import { ageCropsDir, committedAgeCnnSize, readAgeCnnScores } from '../scripts/lib/age-cnn-scores';

/**
 * The out-of-fold scores an age head is fitted and calibrated on must be the engine's input, from a network that
 * never saw the face: faces-dev (neither network trained on it) reads the engine's own networks; a training face
 * reads the one network that did not train on it.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'attestly-age-cnn-scores-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const dist = (peak: number) => Array.from({ length: 100 }, (_, i) => (i === peak ? 1 : 0));
const quality = {
  sharpness: 80,
  brightness: 120,
  contrast: 50,
  clippedDark: 0,
  clippedBright: 0,
  faceSize: 150,
};

function writeCache(): string {
  const cnnDir = path.join(root, 'age-cnn');
  fs.mkdirSync(cnnDir, { recursive: true });
  // The crop index where readAgeCnnScores looks by default: the committed networks' size's folder beside cnnDir.
  const cropDir = ageCropsDir(root, committedAgeCnnSize());
  fs.mkdirSync(cropDir, { recursive: true });
  const line = (file: string, set: string, probs: number[], flip: number[]) =>
    JSON.stringify({ set, file, probs, probs_flip: flip });
  // a trained on half 0 (train_0.jpg), b on half 1 (train_1.jpg); both scored faces-dev.
  fs.writeFileSync(
    path.join(cnnDir, 'oof-a.jsonl'),
    [
      line('dev.jpg', 'faces-dev', dist(30), dist(32)),
      line('train_1.jpg', 'faces-train', dist(20), dist(22)),
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(cnnDir, 'oof-b.jsonl'),
    [
      line('dev.jpg', 'faces-dev', dist(40), dist(42)),
      line('train_0.jpg', 'faces-train', dist(10), dist(12)),
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(cropDir, 'index-0.jsonl'),
    [
      { set: 'faces-dev', file: 'dev.jpg', quality },
      { set: 'faces-train', file: 'train_0.jpg', quality },
      { set: 'faces-train', file: 'train_1.jpg', quality },
      { set: 'faces-train', file: 'none.jpg', error: 'no_face' },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n'),
  );
  return cnnDir;
}

describe('the age networks’ out-of-fold scores', () => {
  const cnnDir = writeCache();
  const peaks = (probs: number[] | undefined) =>
    probs?.flatMap((p, i) => (p > 0 ? [`${i}:${p}`] : [])).join(' ') ?? 'none';

  it('average both networks, crop and mirror, for the head on the networks alone', () => {
    const read = ageModelsRead('faceres-age-cnn-ab');
    const s = readAgeCnnScores(cnnDir, { mirror: read.ageNetworksMirror, networks: read.ageNetworks });
    expect(peaks(s.get('faces-dev/dev.jpg')?.probs)).toBe('30:0.25 32:0.25 40:0.25 42:0.25');
    expect(s.get('faces-dev/dev.jpg')?.models).toBe(2);
    expect(peaks(s.get('faces-train/train_0.jpg')?.probs)).toBe('10:0.5 12:0.5');
    expect(s.get('faces-train/none.jpg')).toEqual({ quality: undefined, models: 0 });
  });

  it('read network a alone where it scored the face, and b where a trained on it, crop only', () => {
    const read = ageModelsRead('faceres-descriptor-1024+faceres-age+age-cnn-a');
    expect(read).toEqual({ ageNetworks: ['a'], ageNetworksMirror: false, ageReadsFaceres: true });
    const s = readAgeCnnScores(cnnDir, { mirror: read.ageNetworksMirror, networks: read.ageNetworks });
    expect(peaks(s.get('faces-dev/dev.jpg')?.probs)).toBe('30:1');
    expect(s.get('faces-dev/dev.jpg')?.models).toBe(1);
    expect(peaks(s.get('faces-train/train_1.jpg')?.probs)).toBe('20:1');
    expect(peaks(s.get('faces-train/train_0.jpg')?.probs)).toBe('10:1');
  });

  it('run no network for the faceres head, and both for the heads that average them', () => {
    expect(ageModelsRead().ageNetworks).toEqual([]);
    expect(ageModelsRead('faceres-descriptor-1024+faceres-age+age-cnn-ab').ageNetworks).toEqual(['a', 'b']);
  });
});
