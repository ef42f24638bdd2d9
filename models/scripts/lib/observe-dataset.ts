import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VisionInputError } from '../../src/errors';
import { verifyManifest, type ModelManifest } from '../../src/manifest';
import type { FaceObservation } from '../../src/types';
import { defaultVideoDecodeOptions } from '../../src/video-decode';
import { WorkerPool } from '../../src/worker-pool';

export const modelsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cacheDir = path.join(modelsDir, '.cache');

export type Observed = { file: string; obs?: FaceObservation; error?: string; ms: number };

/**
 * Runs the production observation step (decode → detect → measure, in the same worker pool) over image files,
 * caching results in models/.cache keyed by file content and model manifest, so retraining is seconds.
 */
export async function observeFiles(files: string[], label: string): Promise<Observed[]> {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(modelsDir, 'manifest.json'), 'utf8'),
  ) as ModelManifest;
  verifyManifest(manifest);
  const manifestKey = createHash('sha256')
    .update(JSON.stringify(manifest.files.map((f) => f.sha256)))
    .digest('hex')
    .slice(0, 12);
  fs.mkdirSync(cacheDir, { recursive: true });
  const cacheFile = path.join(cacheDir, `observations-${label}-${manifestKey}.json`);
  const cache: Record<string, Observed> = fs.existsSync(cacheFile)
    ? JSON.parse(fs.readFileSync(cacheFile, 'utf8'))
    : {};
  const keyOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const todo: { file: string; bytes: Buffer; key: string }[] = [];
  const results = new Map<string, Observed>();
  for (const file of files) {
    const bytes = fs.readFileSync(file);
    const key = keyOf(bytes);
    if (cache[key]) results.set(file, { ...cache[key], file });
    else todo.push({ file, bytes, key });
  }
  if (todo.length) {
    const size = os.availableParallelism();
    const pool = new WorkerPool({
      size,
      maxQueue: todo.length + 1,
      jobTimeoutMs: 60_000,
      workerData: { backend: 'auto', video: defaultVideoDecodeOptions },
    });
    await pool.ready;
    let done = 0;
    await Promise.all(
      todo.map(async ({ file, bytes, key }) => {
        const t0 = performance.now();
        let entry: Observed;
        try {
          const obs = (await pool.run('photo', new Uint8Array(bytes))) as FaceObservation;
          entry = { file, obs, ms: performance.now() - t0 };
        } catch (error) {
          if (!(error instanceof VisionInputError)) throw error;
          entry = { file, error: error.code, ms: performance.now() - t0 };
        }
        cache[key] = entry;
        results.set(file, entry);
        if (++done % 100 === 0) process.stderr.write(`  observed ${done}/${todo.length}\n`);
      }),
    );
    await pool.close();
    fs.writeFileSync(cacheFile, JSON.stringify(cache));
  }
  return files.map((f) => results.get(f)!);
}
