import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVisionEngine, VisionBusyError, VisionInputError, type VisionEngine } from '../src/index';
import sharp from 'sharp';
import { adultFemale30s, adultMale40s, fixture, noFaceImage, sideBySide, stillVideo } from './media';

let engine: VisionEngine;

beforeAll(async () => {
  engine = createVisionEngine({ workers: 2, maxQueue: 2 });
  await engine.ready;
}, 60_000);

afterAll(async () => {
  await engine?.close();
});

async function inputError(p: Promise<unknown>): Promise<VisionInputError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VisionInputError);
  return error as VisionInputError;
}

describe('vision engine', () => {
  it('reports its backend and workers once ready', () => {
    expect(engine.status()).toMatchObject({ ready: true, workers: 2, queued: 0 });
    expect(engine.status().backend).toMatch(/wasm|tensorflow/);
  });

  it('finds the adult in a fixture photo with a plausible age and a weak, labelled liveness', async () => {
    const r = await engine.analyzePhoto(fixture(adultMale40s), { thresholds: [18, 21] });
    expect(r.age).toBeGreaterThan(25);
    expect(r.age).toBeLessThan(65);
    expect(r.age_range.min).toBeLessThanOrEqual(r.age);
    expect(r.age_range.max).toBeGreaterThanOrEqual(r.age);
    expect(r.confidence).toBeGreaterThan(0);
    expect(r.confidence).toBeLessThanOrEqual(1);
    expect(r.quality.ok).toBe(true);
    expect(r.liveness_method).toBe('passive_single_frame');
    expect(r.liveness_confidence).toBeLessThanOrEqual(0.3);
    expect(r.threshold_decisions.map((d) => d.threshold)).toEqual([18, 21]);
    expect(r.approved_thresholds.every((t) => [18, 21].includes(t))).toBe(true);
  });

  it('answers no_face with a message for the user when there is no face', async () => {
    const e = await inputError(engine.analyzePhoto(await noFaceImage()));
    expect(e.code).toBe('no_face');
    expect(e.message).toMatch(/No face was found/);
  });

  it('answers multiple_faces for two people side by side', async () => {
    const e = await inputError(
      engine.analyzePhoto(await sideBySide(fixture(adultMale40s), fixture(adultFemale30s))),
    );
    expect(e.code).toBe('multiple_faces');
  });

  it('answers unreadable_image for a truncated JPEG and an empty file, and the workers keep serving', async () => {
    const jpeg = fixture(adultMale40s);
    expect(
      (await inputError(engine.analyzePhoto(jpeg.subarray(0, Math.floor(jpeg.length * 0.6))))).code,
    ).toBe('unreadable_image');
    expect((await inputError(engine.analyzePhoto(new Uint8Array(0)))).code).toBe('unreadable_image');
    expect((await engine.analyzePhoto(jpeg)).age).toBeGreaterThan(0);
    expect(engine.status()).toMatchObject({ workers: 2, queued: 0 });
  });

  it('rejects a video of a still photo as not live, with the video fields filled', async () => {
    const r = await engine.analyzeVideo(stillVideo(fixture(adultMale40s), 5), { thresholds: [18] });
    expect(r.is_live).toBe(false);
    expect(r.video_liveness.passed).toBe(false);
    expect(r.video_liveness.reasons).toContain('no_blink');
    expect(r.approved_thresholds).toEqual([]);
    expect(r.blinks).toBe(0);
    expect(r.frames_analyzed).toBeGreaterThanOrEqual(30);
    expect(r.video_duration).toBeGreaterThan(4.5);
    expect(r.video_duration).toBeLessThanOrEqual(5.5);
    expect(r.live_percentage).toBeGreaterThan(90);
    expect(r.head_yaw_range.span).toBeLessThan(15);
    expect(r.eye_measurements.ear_series.length).toBeGreaterThan(0);
    expect(r.message).toMatch(/live recording/);
  }, 30_000);

  it('refuses a video longer than 5 seconds', async () => {
    expect((await inputError(engine.analyzeVideo(stillVideo(fixture(adultMale40s), 7, 5)))).code).toBe(
      'video_too_long',
    );
    // Chunks handed to the pool while ffmpeg was still decoding are dropped once the clip is refused.
    expect(engine.status().queued).toBe(0);
  }, 30_000);

  it('answers unreadable_video for a corrupted WebM and keeps serving', async () => {
    const webm = stillVideo(fixture(adultMale40s), 2, 5);
    const garbled = Buffer.from(webm);
    for (let i = 40; i < garbled.length; i += 3) garbled[i] = (garbled[i]! * 31 + 7) & 0xff;
    expect((await inputError(engine.analyzeVideo(garbled))).code).toMatch(/unreadable_video|no_face/);
    expect((await inputError(engine.analyzeVideo(Buffer.from('not a video at all')))).code).toBe(
      'unreadable_video',
    );
    expect(engine.status()).toMatchObject({ workers: 2, queued: 0 });
  }, 30_000);

  it('matches a fixture face against a cropped, scaled, brightened copy of the same photo', async () => {
    const original = fixture(adultMale40s);
    const copy = await sharp(original)
      .extract({ left: 24, top: 16, width: 400, height: 410 })
      .resize(300)
      .modulate({ brightness: 1.15 })
      .jpeg({ quality: 75 })
      .toBuffer();
    const r = await engine.compareFaces(original, copy);
    expect(r.match).toBe(true);
    expect(r.similarity).toBeGreaterThanOrEqual(r.threshold);
    expect(r.similarity).toBeLessThanOrEqual(1);
    expect(r.threshold).toBe(0.76);
    expect(r.message).toMatch(/same person/);
    expect(r.quality_ok).toEqual([true, true]);
  }, 30_000);

  it('does not match two different fixture people', async () => {
    const r = await engine.compareFaces(fixture(adultMale40s), fixture(adultFemale30s));
    expect(r.match).toBe(false);
    expect(r.similarity).toBeLessThan(r.threshold);
    expect(r.similarity).toBeGreaterThanOrEqual(0);
    expect(r.message).toMatch(/do not appear/);
  }, 30_000);

  it('answers no_face when one side of a comparison has no face', async () => {
    const e = await inputError(engine.compareFaces(fixture(adultMale40s), await noFaceImage()));
    expect(e.code).toBe('no_face');
    expect(engine.status()).toMatchObject({ workers: 2, queued: 0 });
  }, 30_000);

  it('refuses work beyond its queue with VisionBusyError and a Retry-After', async () => {
    const jpeg = fixture(adultFemale30s);
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => engine.analyzePhoto(jpeg)));
    const busy = results.filter((r) => r.status === 'rejected' && r.reason instanceof VisionBusyError);
    expect(busy.length).toBeGreaterThan(0);
    expect((busy[0] as PromiseRejectedResult).reason.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(4);
  }, 30_000);
});
