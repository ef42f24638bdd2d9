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

type CacheLine = { key: string; entry: Observed };

/**
 * Bump when FaceObservation changes shape, so that an older cache is never read as the new one
 * (2: faceres run by the engine with its intermediate age features; 3: the 'descriptor' op no longer runs the age
 * networks, so its age is faceres's, and the heads on faceres features read every set through it).
 */
const OBSERVATION_VERSION = 3;

/** The long float arrays are stored as little-endian float32 base64 (exact: tfjs computes them in float32). */
const PACKED = ['descriptor', 'ageFeatures'] as const;
function packEntry(entry: Observed): unknown {
  if (!entry.obs) return entry;
  const obs: Record<string, unknown> = { ...entry.obs };
  for (const k of PACKED) {
    obs[k] = Buffer.from(Float32Array.from(entry.obs[k]).buffer).toString('base64');
  }
  return { ...entry, obs };
}
function unpackEntry(raw: Observed): Observed {
  if (!raw.obs) return raw;
  const obs = { ...raw.obs } as Record<string, unknown>;
  for (const k of PACKED) {
    const b = Buffer.from(obs[k] as string, 'base64');
    obs[k] = Array.from(new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4));
  }
  return { ...raw, obs: obs as unknown as FaceObservation };
}

function manifestKey(): string {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(modelsDir, 'manifest.json'), 'utf8'),
  ) as ModelManifest;
  verifyManifest(manifest);
  return createHash('sha256')
    .update(JSON.stringify([OBSERVATION_VERSION, ...manifest.files.map((f) => f.sha256)]))
    .digest('hex')
    .slice(0, 12);
}

/** Reads a JSON-lines cache; a torn last line (the process was killed mid-write) is ignored. */
function readCache(file: string): Map<string, Observed> {
  const cache = new Map<string, Observed>();
  if (!fs.existsSync(file)) return cache;
  // Line by line from a buffer: a cache of many thousand faces is larger than one JavaScript string may be.
  const buf = fs.readFileSync(file);
  let start = 0;
  while (start < buf.length) {
    let end = buf.indexOf(10, start);
    if (end < 0) end = buf.length;
    const line = buf.toString('utf8', start, end);
    start = end + 1;
    if (!line) continue;
    try {
      const { key, entry } = JSON.parse(line) as CacheLine;
      cache.set(key, unpackEntry(entry));
    } catch {
      // torn line
    }
  }
  return cache;
}

export interface ObserveOptions {
  /** Only read the cache: files not observed yet come back with error 'not_observed'. */
  cacheOnly?: boolean;
  /** Worker count (default: available parallelism). */
  workers?: number;
  /**
   * 'photo' (default) runs the photo check (the age networks and the passive cues, no descriptor); 'descriptor' is the
   * face-match pass (faceres's descriptor, age and intermediate features, pose and quality; the passive cues read
   * NaN), which the heads on faceres features (`--features base|rich`) are trained on.
   */
  op?: 'photo' | 'descriptor';
}

/**
 * Runs the production observation step (decode → detect → measure, in the same worker pool) over image files,
 * caching results in models/.cache (one JSON line per image, appended as each finishes, keyed by file content
 * and model manifest), so an interrupted run resumes and retraining is seconds.
 */
export async function observeFiles(
  files: string[],
  label: string,
  options: ObserveOptions = {},
): Promise<Observed[]> {
  fs.mkdirSync(cacheDir, { recursive: true });
  const cacheFile = path.join(cacheDir, `observations-${label}-${manifestKey()}.jsonl`);
  const cache = readCache(cacheFile);
  const keyOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const todo: { file: string; bytes: Buffer; key: string }[] = [];
  const results = new Map<string, Observed>();
  for (const file of files) {
    const bytes = fs.readFileSync(file);
    const key = keyOf(bytes);
    const hit = cache.get(key);
    if (hit) results.set(file, { ...hit, file });
    else if (options.cacheOnly) results.set(file, { file, error: 'not_observed', ms: 0 });
    else todo.push({ file, bytes, key });
  }
  if (todo.length) {
    const size = options.workers ?? os.availableParallelism();
    const pool = new WorkerPool({
      size,
      maxQueue: todo.length + 1,
      jobTimeoutMs: 120_000,
      workerData: { backend: 'auto', video: defaultVideoDecodeOptions },
    });
    await pool.ready;
    const out = fs.openSync(cacheFile, 'a');
    let done = 0;
    // A bounded window keeps memory flat and the order (callers sort by priority) meaningful.
    let next = 0;
    const runOne = async (): Promise<void> => {
      while (next < todo.length) {
        const { file, bytes, key } = todo[next++]!;
        const t0 = performance.now();
        let entry: Observed;
        try {
          const obs = (await pool.run(options.op ?? 'photo', new Uint8Array(bytes))) as FaceObservation;
          entry = { file, obs, ms: performance.now() - t0 };
        } catch (error) {
          if (!(error instanceof VisionInputError)) throw error;
          entry = { file, error: error.code, ms: performance.now() - t0 };
        }
        fs.writeSync(out, `${JSON.stringify({ key, entry: packEntry(entry) })}\n`);
        results.set(file, entry);
        if (++done % 100 === 0) process.stderr.write(`  ${label}: observed ${done}/${todo.length}\n`);
      }
    };
    try {
      await Promise.all(Array.from({ length: size * 2 }, runOne));
    } finally {
      fs.closeSync(out);
      await pool.close();
    }
  }
  return files.map((f) => results.get(f)!);
}
