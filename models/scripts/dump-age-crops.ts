/**
 * Writes the production face crops of the training face sets for the age network (models/training/):
 * each labelled image goes through the engine's own steps — decode, the describe pass (detector + mesh, with the
 * grey border retry for tight crops), the quality metrics — and Human's aligned crop is resized exactly as the
 * engine resizes it for the age network (bilinear, no corner alignment, ×255), then stored as uint8 RGB.
 *
 *   nice -n 19 npx tsx models/scripts/dump-age-crops.ts [--size 128] [--shard 0 --shards 2]
 *
 * Output, per shard, in models/.cache/age-crops/: `crops-<k>.u8` (size×size×3 bytes per face, in index order)
 * and `index-<k>.jsonl` (set, file, labels, quality, pose, or the reason no face was taken). Restartable: a
 * shard skips the files its index already holds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { VisionInputError } from '../src/errors';
import { findSubject, measureQuality } from '../src/face-observer';
import type { FaceresTensor as Tensor } from '../src/faceres-features';
import { createHumanRuntime } from '../src/human-runtime';
import { decodeImage } from '../src/image-decode';
import { readCsv } from './lib/csv';
import { modelsDir } from './lib/observe-dataset';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '128' },
    shard: { type: 'string', default: '0' },
    shards: { type: 'string', default: '1' },
    data: { type: 'string', default: path.join(modelsDir, '../../shared/data') },
    out: { type: 'string', default: path.join(modelsDir, '.cache/age-crops') },
  },
});
const size = Number(values.size);
const shard = Number(values.shard);
const shards = Number(values.shards);
fs.mkdirSync(values.out!, { recursive: true });

const sets = ['faces-dev', 'faces-train', 'faces-aaf'].filter((s) =>
  fs.existsSync(path.join(values.data!, s, 'labels.csv')),
);
const rows = sets.flatMap((set) =>
  readCsv(path.join(values.data!, set, 'labels.csv')).map((r) => ({ set, ...r }) as Record<string, string>),
);
const mine = rows.filter((_, i) => i % shards === shard);

const indexFile = path.join(values.out!, `index-${shard}.jsonl`);
const cropFile = path.join(values.out!, `crops-${shard}.u8`);
const done = new Set<string>();
let cropsWritten = 0;
if (fs.existsSync(indexFile)) {
  for (const line of fs.readFileSync(indexFile, 'utf8').split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as { set: string; file: string; crop?: number };
    done.add(`${e.set}/${e.file}`);
    if (e.crop !== undefined) cropsWritten = Math.max(cropsWritten, e.crop + 1);
  }
  // A torn tail (killed mid-write) is cut back to the last indexed crop.
  fs.truncateSync(cropFile, cropsWritten * size * size * 3);
}

const runtime = await createHumanRuntime('auto');
const { human } = runtime;
const tf = human.tf as unknown as {
  tidy<T>(fn: () => T): T;
  expandDims(t: Tensor, axis: number): Tensor;
  mul(t: Tensor, v: number): Tensor;
  round(t: Tensor): Tensor;
  clipByValue(t: Tensor, lo: number, hi: number): Tensor;
  image: { resizeBilinear(t: Tensor, size: [number, number], alignCorners: boolean): Tensor };
};

const index = fs.openSync(indexFile, 'a');
const crops = fs.openSync(cropFile, 'a');
const t0 = performance.now();
let n = 0;
for (const row of mine) {
  if (done.has(`${row.set}/${row.file}`)) continue;
  const base = {
    set: row.set,
    file: row.file,
    age: Number(row.age),
    gender: row.gender,
    race: row.race ?? '',
  };
  let entry: Record<string, unknown>;
  try {
    const image = await decodeImage(fs.readFileSync(path.join(values.data!, row.set!, row.file!)));
    const found: Tensor[] = [];
    try {
      // The engine's own search for the one subject face (grey-border retry for tight crops included).
      const { face, used, offset } = await findSubject(human, image, 'describe', found);
      const resized = tf.tidy(() =>
        tf.clipByValue(
          tf.round(tf.mul(tf.image.resizeBilinear(tf.expandDims(face.tensor, 0), [size, size], false), 255)),
          0,
          255,
        ),
      );
      const pixels = Uint8Array.from(await resized.data());
      resized.dispose();
      fs.writeSync(crops, pixels);
      const quality = await measureQuality(used, face);
      entry = {
        ...base,
        crop: cropsWritten++,
        detectionScore: face.score,
        quality,
        padded: offset > 0,
        rollDeg: ((face.rotation?.angle?.roll ?? 0) * 180) / Math.PI,
      };
    } finally {
      for (const t of found) t.dispose();
    }
  } catch (error) {
    if (!(error instanceof VisionInputError)) throw error;
    entry = { ...base, error: error.code };
  }
  fs.writeSync(index, `${JSON.stringify(entry)}\n`);
  if (++n % 200 === 0) {
    const rate = n / ((performance.now() - t0) / 1000);
    console.error(`shard ${shard}: ${n}/${mine.length - done.size} (${rate.toFixed(1)}/s)`);
  }
}
fs.closeSync(index);
fs.closeSync(crops);
console.error(`shard ${shard}: done, ${cropsWritten} crops`);
