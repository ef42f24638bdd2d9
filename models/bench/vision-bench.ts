/**
 * Vision benchmark: photo latency (first call and warm p50/p95), 5-s video latency, pool throughput, peak RSS.
 *   tsx models/bench/vision-bench.ts      (prints a table, then one JSON line)
 *   VISION_BENCH_WEIGHTS=models/weights/age-head.json tsx models/bench/vision-bench.ts
 *                                         (the same with another age head than the default: here faceres alone)
 * Two heads compared in separate runs drift with the machine; models/bench/age-head-ab.ts takes turns in one process.
 * Uses the committed FairFace fixtures only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgeHeadWeights } from '../src/age-head';
import { createVisionEngine } from '../src/index';
import { adultMale40s, fixture, fixturesDir, stillVideo } from '../test/media';

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
}

export async function runVisionBench(): Promise<Record<string, number>> {
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const photos = fs
    .readdirSync(fixturesDir)
    .filter((f) => f.endsWith('.jpg'))
    .map((f) => fixture(f));
  const t0 = performance.now();
  // Queue deep enough for the throughput burst; overflow behaviour is covered by the engine test.
  const weightsFile = process.env.VISION_BENCH_WEIGHTS;
  const engine = createVisionEngine({
    maxQueue: 64,
    ...(weightsFile ? { weights: JSON.parse(fs.readFileSync(weightsFile, 'utf8')) as AgeHeadWeights } : {}),
  });
  await engine.ready;
  const startupMs = performance.now() - t0;
  try {
    let t = performance.now();
    await engine.analyzePhoto(photos[0]!);
    const firstMs = performance.now() - t;
    const warm: number[] = [];
    for (let i = 0; i < 20; i++) {
      t = performance.now();
      await engine.analyzePhoto(photos[i % photos.length]!);
      warm.push(performance.now() - t);
    }
    const clip = stillVideo(fixture(adultMale40s), 5);
    const videoMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      t = performance.now();
      await engine.analyzeVideo(clip);
      videoMs.push(performance.now() - t);
    }
    const n = 24;
    t = performance.now();
    await Promise.all(Array.from({ length: n }, (_, i) => engine.analyzePhoto(photos[i % photos.length]!)));
    const throughput = n / ((performance.now() - t) / 1000);
    return {
      workers: engine.status().workers,
      cpus: os.availableParallelism(),
      startup_ms: Math.round(startupMs),
      photo_first_ms: Math.round(firstMs),
      photo_p50_ms: Math.round(pct(warm, 0.5)),
      photo_p95_ms: Math.round(pct(warm, 0.95)),
      video_5s_ms: Math.round(pct(videoMs, 0.5)),
      video_5s_max_ms: Math.round(Math.max(...videoMs)),
      photo_throughput_per_s: Math.round(throughput * 100) / 100,
      // Worker threads share the process, so process RSS covers every backend instance.
      peak_rss_mb: Math.round(peakRss / 2 ** 20),
    };
  } finally {
    clearInterval(sampler);
    await engine.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await runVisionBench();
  for (const [k, v] of Object.entries(r)) console.log(`${k.padEnd(24)} ${v}`);
  console.log(JSON.stringify(r));
}
