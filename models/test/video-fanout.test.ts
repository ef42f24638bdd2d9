import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ageModelsRead } from '../src/age-head';
import { committedWeights, createVisionEngine, decideAge, type VisionEngine } from '../src/index';
import type { VideoObservation } from '../src/types';
import { defaultVideoDecodeOptions } from '../src/video-decode';
import { WorkerPool } from '../src/worker-pool';
import {
  adultFemale30s,
  adultFemale30sLandmarks,
  fixture,
  headTurnAndBlink,
  syntheticChallengeVideo,
} from './media';

let engine: VisionEngine;
let single: WorkerPool;
let clip: Buffer;

beforeAll(async () => {
  engine = createVisionEngine({ workers: 2 });
  single = new WorkerPool({
    size: 1,
    maxQueue: 1,
    jobTimeoutMs: 60_000,
    // The models the engine's default head reads, as the engine gives its own workers.
    workerData: {
      backend: 'auto',
      video: defaultVideoDecodeOptions,
      ageModels: ageModelsRead(committedWeights.features),
    },
  });
  clip = await syntheticChallengeVideo(fixture(adultFemale30s), adultFemale30sLandmarks, headTurnAndBlink);
  await Promise.all([engine.ready, single.ready]);
}, 60_000);

afterAll(async () => {
  await Promise.all([engine?.close(), single?.close()]);
});

const r3 = (v: number | null) => (v === null ? NaN : Math.round(v * 1000) / 1000);

describe('video analysis fanned out over the pool', () => {
  it('gives frame for frame the same measurements and age as one worker analysing the whole clip', async () => {
    const [fanned, whole] = await Promise.all([
      engine.analyzeVideo(clip, { thresholds: [18] }),
      single.run('video', clip) as Promise<VideoObservation>,
    ]);
    const faced = whole.frames.filter((f) => f.faces === 1);
    expect(fanned.frames_analyzed).toBe(whole.frames.length);
    expect(fanned.eye_measurements.ear_series).toEqual(faced.map((f) => r3(f.eyeAspectRatio)));
    // The clip moves and blinks, so a merge out of time order would change the series.
    expect(new Set(fanned.eye_measurements.ear_series).size).toBeGreaterThan(5);
    expect(fanned.age).toBe(decideAge(whole.best, [18], committedWeights).age);
    // The best frames carry the single-frame passive cues the liveness decision reads (liveness-3d.ts passiveCue).
    for (const best of whole.best) {
      expect(best.antispoof).toBeGreaterThan(0);
      expect(best.liveness).toBeGreaterThan(0);
    }
  }, 60_000);

  it('serves photos while a video is being analysed and stays idle afterwards', async () => {
    const [video, photo] = await Promise.all([
      engine.analyzeVideo(clip),
      engine.analyzePhoto(fixture(adultFemale30s)),
    ]);
    expect(video.frames_analyzed).toBeGreaterThanOrEqual(38);
    expect(photo.age).toBeGreaterThan(0);
    expect(engine.status()).toMatchObject({ workers: 2, queued: 0 });
  }, 60_000);
});
