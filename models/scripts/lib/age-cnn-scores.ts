import fs from 'node:fs';
import path from 'node:path';
import type { QualityMetrics } from '../../src/types';

export interface AgeCnnScore {
  /**
   * The mean age distribution of the networks that never trained on this face, each reading the crop and its mirror
   * as the engine does (age-cnn.ts); absent when no face was found.
   */
  probs?: number[];
  quality: QualityMetrics;
  /** How many networks scored it (1 for a training face, both for faces-dev, which neither trained on). */
  models: number;
}

function jsonLines<T>(file: string): T[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

/**
 * The age networks' out-of-fold scores, keyed `<set>/<file>`: `oof-<m>.jsonl` in `cnnDir` (written by
 * models/training/train_age_cnn.py, or by score_age_cnn.py from the committed networks) joined with the crop index
 * of models/.cache/age-crops (quality metrics, and the faces where no face was found). A face scored by several
 * networks gets the mean of their distributions, crop and mirror alike (`mirror`, the head on the networks alone) or
 * of the crop only (the head that also reads faceres), as the engine computes it (age-head.ts `ageModelsRead`).
 */
export function readAgeCnnScores(
  cnnDir: string,
  { mirror = true, cropDir = path.join(cnnDir, '../age-crops') }: { mirror?: boolean; cropDir?: string } = {},
): Map<string, AgeCnnScore> {
  const sums = new Map<string, { sum: number[]; models: number }>();
  for (const file of fs.readdirSync(cnnDir).filter((f) => /^oof-[a-z]+\.jsonl$/.test(f))) {
    for (const e of jsonLines<{ set: string; file: string; probs: number[]; probs_flip?: number[] }>(
      path.join(cnnDir, file),
    )) {
      const key = `${e.set}/${e.file}`;
      const flip = e.probs_flip;
      if (!flip) {
        throw new Error(
          `${file} has no mirrored-crop scores (written before the engine read the mirror): ` +
            'run /usr/bin/python3 models/training/score_age_cnn.py',
        );
      }
      const acc = sums.get(key) ?? { sum: new Array<number>(100).fill(0), models: 0 };
      if (mirror) e.probs.forEach((p, i) => (acc.sum[i]! += (p + flip[i]!) / 2));
      else e.probs.forEach((p, i) => (acc.sum[i]! += p));
      acc.models++;
      sums.set(key, acc);
    }
  }
  if (!sums.size)
    throw new Error(`no out-of-fold age network scores in ${cnnDir}: run npm run train:age-model`);
  const out = new Map<string, AgeCnnScore>();
  for (const file of fs.readdirSync(cropDir).filter((f) => /^index-\d+\.jsonl$/.test(f))) {
    for (const e of jsonLines<{ set: string; file: string; quality?: QualityMetrics; error?: string }>(
      path.join(cropDir, file),
    )) {
      const key = `${e.set}/${e.file}`;
      const acc = sums.get(key);
      if (e.error || !e.quality) {
        out.set(key, { quality: e.quality!, models: 0 });
      } else if (acc) {
        out.set(key, { probs: acc.sum.map((v) => v / acc.models), quality: e.quality, models: acc.models });
      }
    }
  }
  return out;
}
