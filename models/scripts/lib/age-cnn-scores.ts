import fs from 'node:fs';
import path from 'node:path';
import { AGE_CNN_FILES, type AgeNetworkId } from '../../src/age-cnn';
import type { QualityMetrics } from '../../src/types';
import { modelsDir } from './observe-dataset';

/** The committed networks' input side, from network a's graph signature. */
export function committedAgeCnnSize(): string {
  const graph = JSON.parse(fs.readFileSync(path.join(modelsDir, 'weights', AGE_CNN_FILES[0]), 'utf8')) as {
    signature: { inputs: Record<string, { tensorShape: { dim: { size: string }[] } }> };
  };
  return Object.values(graph.signature.inputs)[0]!.tensorShape.dim[1]!.size;
}

/** Where train:age-model keeps the crops of one input size in `cacheDir`: age-crops at 128 px, else age-crops-<N>. */
export const ageCropsDir = (cacheDir: string, size: string) =>
  path.join(cacheDir, size === '128' ? 'age-crops' : `age-crops-${size}`);

export interface AgeCnnScore {
  /**
   * The mean age distribution of the engine's networks that never trained on this face (or of the other one), as
   * the engine reads them (age-cnn.ts); absent when no face was found.
   */
  probs?: number[];
  quality: QualityMetrics;
  /**
   * How many networks' scores were averaged: 1 for a training face; for faces-dev, which neither trained on, the
   * engine's networks.
   */
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
 * (quality metrics, and the faces where no face was found; default: the committed networks' size's crops beside
 * `cnnDir`, `ageCropsDir`). A face gets the mean of the
 * distributions of the engine's networks (`networks`) that scored it, crop and mirror alike (`mirror`, the head on
 * the networks alone) or of the crop only (the heads that also read faceres), as the engine computes it (age-head.ts
 * `ageModelsRead`). A training face is scored only by the network that did not train on it: when the engine reads
 * network a alone, a face of a's half gets b's score, the same recipe fitted on the other half, so every score the
 * head is fitted and calibrated on comes from a network that never saw the face.
 */
export function readAgeCnnScores(
  cnnDir: string,
  {
    mirror = true,
    networks = ['a', 'b'],
    cropDir = ageCropsDir(path.dirname(cnnDir), committedAgeCnnSize()),
  }: { mirror?: boolean; networks?: readonly AgeNetworkId[]; cropDir?: string } = {},
): Map<string, AgeCnnScore> {
  const scored = new Map<string, Map<string, number[]>>();
  for (const file of fs.readdirSync(cnnDir).filter((f) => /^oof-[a-z]+\.jsonl$/.test(f))) {
    const network = file.slice(4, -6);
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
      const byNetwork = scored.get(key) ?? new Map<string, number[]>();
      byNetwork.set(network, mirror ? e.probs.map((p, i) => (p + flip[i]!) / 2) : e.probs);
      scored.set(key, byNetwork);
    }
  }
  if (!scored.size)
    throw new Error(`no out-of-fold age network scores in ${cnnDir}: run npm run train:age-model`);
  const out = new Map<string, AgeCnnScore>();
  for (const file of fs.readdirSync(cropDir).filter((f) => /^index-\d+\.jsonl$/.test(f))) {
    for (const e of jsonLines<{ set: string; file: string; quality?: QualityMetrics; error?: string }>(
      path.join(cropDir, file),
    )) {
      const key = `${e.set}/${e.file}`;
      const byNetwork = scored.get(key);
      if (e.error || !e.quality) {
        out.set(key, { quality: e.quality!, models: 0 });
      } else if (byNetwork) {
        const own = networks.filter((m) => byNetwork.has(m));
        const dists = (own.length ? own : [...byNetwork.keys()]).map((m) => byNetwork.get(m)!);
        const probs = dists[0]!.map((_, i) => dists.reduce((s, d) => s + d[i]!, 0) / dists.length);
        out.set(key, { probs, quality: e.quality, models: dists.length });
      }
    }
  }
  return out;
}
