import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FaceresGraph, FaceresTensor, FaceresTf } from './faceres-features';

/**
 * The age networks (issue 22, R1): faceres's MobileNetV1 fine-tuned for age on the production face crops by
 * models/training/train_age_cnn.py, two models cross-fitted on disjoint halves of the training faces and committed
 * as TensorFlow.js graphs in models/weights (manifest.json holds their SHA-256). Each reads Human's aligned face
 * crop resized to its input size (160 px since 2026-11-30; the graph's signature gives it), and its mirror image in
 * the same batch, and gives a 100-bin age distribution (ages 0–99) for each. The head on the networks alone
 * (age-head.ts, feature set 'faceres-age-cnn-ab', ATTESTLY_AGE_MODEL=networks) reads the features below from the
 * mean of the four distributions; the default head ('combined') reads them from network a on the crop alone, beside
 * faceres. These networks decide age only: the face-match and identity checks keep Human's own faceres descriptor,
 * which fine-tuning for age would erode.
 */
export const AGE_CNN_FILES = ['faceres-age-a.json', 'faceres-age-b.json'] as const;
/** An age network by name: a trained on one half of the training faces, b on the other. */
export type AgeNetworkId = 'a' | 'b';
export const AGE_CNN_OUTPUT = 'age_pred/Softmax';
/** The "age ≥ t" boundaries whose log-odds the head reads (the ones the networks were trained on). */
export const AGE_CNN_TAILS = [13, 16, 18, 21, 25] as const;

/**
 * models/weights, found from wherever this code runs: models/src (source), apps/api/dist (the API's bundle) or
 * cli/dist (the CLI's bundle, whose doctor checks the manifest); the Docker image keeps the same layout.
 */
export function ageCnnDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = ['../weights', '../../models/weights', '../../../models/weights'].map((rel) =>
    path.resolve(here, rel),
  );
  return candidates.find((d) => fs.existsSync(path.join(d, AGE_CNN_FILES[0]))) ?? candidates[0]!;
}

/** The graph file of age network `id` ('a' or 'b'). */
export function ageCnnFile(id: AgeNetworkId): (typeof AGE_CNN_FILES)[number] {
  return id === 'a' ? AGE_CNN_FILES[0] : AGE_CNN_FILES[1];
}

export async function loadAgeCnn(
  tf: FaceresTf,
  ids: readonly AgeNetworkId[] = ['a', 'b'],
  dir = ageCnnDir(),
): Promise<FaceresGraph[]> {
  return Promise.all(ids.map((id) => tf.loadGraphModel(pathToFileURL(path.join(dir, ageCnnFile(id))).href)));
}

/** The networks' input side, from the graph's signature (the exporter fixes it). */
export function ageCnnSize(model: FaceresGraph): number {
  const side = model.inputs[0]?.shape?.[1];
  if (!side || side < 1) throw new Error('the age network graph has no fixed input size');
  return side;
}

/**
 * Runs the given age networks on Human's face crop ([h, w, 3], 0–1), resized as the training crops were
 * (bilinear, no corner alignment, ×255), and on its mirror image, and returns the mean of their age distributions.
 * The mirror is the training's own flip augmentation read back at test time: out of fold it lowered the error and
 * let more adults through on every source at the same teenagers' bound for the head on the networks alone; the head
 * that also reads faceres gains nothing from it and reads the crop only (`mirror: false`; MODEL_CARD.md, issue 22).
 * Intermediate tensors are disposed; the crop stays the caller's.
 */
export async function runAgeCnn(
  tf: FaceresTf,
  models: readonly FaceresGraph[],
  crop: FaceresTensor,
  mirror = true,
): Promise<number[]> {
  if (!models.length) throw new Error('no age network loaded');
  const size = ageCnnSize(models[0]!);
  const outputs = tf.tidy(() => {
    const batch = crop.shape.length === 3 ? tf.expandDims(crop, 0) : crop;
    const resized = tf.mul(tf.image.resizeBilinear(batch, [size, size], false), 255);
    const input = mirror ? tf.concat([resized, tf.reverse(resized, 2)], 0) : resized;
    return models.map((m) => m.execute(input, [AGE_CNN_OUTPUT]) as FaceresTensor | FaceresTensor[]).flat();
  });
  try {
    const dists = await Promise.all(outputs.map((t) => t.data()));
    const images = mirror ? 2 : 1;
    const mean = new Array<number>(100).fill(0);
    for (const d of dists) {
      if (d.length !== images * 100)
        throw new Error(`the age network gave ${d.length} values, expected ${images} × 100 bins`);
      for (let i = 0; i < d.length; i++) mean[i % 100]! += d[i]! / (images * dists.length);
    }
    return mean;
  } finally {
    for (const t of outputs) t.dispose();
  }
}

/** Expected age of a 100-bin distribution. */
export function expectedAge(p: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) s += i * p[i]!;
  return s;
}

/**
 * What the age head reads: the expected age, then the log-odds of "age ≥ t" for each boundary of AGE_CNN_TAILS
 * (clamped to ±12 so that a distribution with no mass on one side stays finite).
 */
export function ageCnnFeatures(p: readonly number[]): number[] {
  if (p.length !== 100) throw new Error(`an age distribution has 100 bins, not ${p.length}`);
  const out = [expectedAge(p)];
  for (const t of AGE_CNN_TAILS) {
    let tail = 0;
    for (let i = t; i < 100; i++) tail += p[i]!;
    const q = Math.min(1 - 1e-6, Math.max(1e-6, tail));
    out.push(Math.max(-12, Math.min(12, Math.log(q / (1 - q)))));
  }
  return out;
}
