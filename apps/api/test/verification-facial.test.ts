import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVisionEngine, type VisionEngine } from '@attestly/models';
import { photoPolicyMessage } from '../src/modules/users/verification/facial';
import { createTestApp, type TestApp } from './helpers';
import {
  ADULT_FEMALE_30S,
  ADULT_MALE_40S,
  bearer,
  corrupt,
  fixture,
  haveFaceFixtures,
  newChallenge,
  newUser,
  noFaceImage,
  stillVideo,
  stored,
  textPdf,
  twoFaces,
} from './verification-media';

/**
 * POST /age-verification/verify-age with the real engine (one worker, as on a small box). Loading the models takes
 * a second or two, so the whole file shares one engine and one app (Sequelize models are bound per process, so one
 * app per file); the photo policy switch is flipped on the app's parsed config where a test needs it.
 */
let engine: VisionEngine;
let t: TestApp;
let token: string;

beforeAll(async () => {
  engine = createVisionEngine({ workers: 1, maxQueue: 2 });
  t = await createTestApp({ vision: engine, env: { ATTESTLY_TRUST_PROXY: 'true' } });
  await engine.ready;
  token = (await newUser(t)).token;
});
afterAll(async () => {
  await t?.close();
  await engine?.close();
});

const verifyAge = (
  app: TestApp,
  bearerToken: string | null,
  file: Buffer,
  mediaType: string,
  name = 'verification.jpg',
  extra: Record<string, string> = {},
) => {
  let request = app.request.post('/api/v1/age-verification/verify-age');
  if (bearerToken) request = request.set(bearer(bearerToken));
  request = request.field('media_type', mediaType);
  for (const [key, value] of Object.entries(extra)) request = request.field(key, value);
  return request.attach('media_file', file, name);
};

describe('age verification by camera: access and readiness', () => {
  it('asks the visitor to log in when no bearer token is sent', async () => {
    const response = await t.request
      .post('/api/v1/age-verification/verify-age')
      .field('media_type', 'image')
      .expect(401);
    expect(response.body.detail).toBe('Please log in to verify your age');
  });

  it('reports the vision engine in /readyz', async () => {
    const response = await t.request.get('/readyz').expect(200);
    expect(response.body.checks.vision).toEqual({
      ok: true,
      backend: expect.stringMatching(/wasm|tensorflow/),
      workers: 1,
      queued: 0,
    });
  });
});

describe.skipIf(!haveFaceFixtures)('age verification by camera: photos', () => {
  it('rejects a photo that clears the age estimate because a photo cannot prove liveness, and points to video or document', async () => {
    const response = await verifyAge(t, token, fixture(ADULT_MALE_40S), 'image').expect(200);
    expect(response.body).toMatchObject({
      status: 'rejected',
      age_threshold: 18,
      message: photoPolicyMessage(18),
      extracted_data: {
        media_type: 'image',
        face_clears_threshold: true,
        liveness_method: 'passive_single_frame',
        media_stored: false,
      },
    });
    expect(response.body.age).toBeGreaterThan(25);
    expect(response.body.confidence).toBeGreaterThan(0);
    expect(response.body.confidence).toBeLessThanOrEqual(1);
    expect(typeof response.body.is_live).toBe('boolean');
    expect(response.body.age_range.min).toBeLessThanOrEqual(response.body.age);
    expect(response.body.age_range.max).toBeGreaterThanOrEqual(response.body.age);
    const row = await t.db.models.Verification.findByPk(response.body.verification_id as string);
    expect(row).toMatchObject({
      verification_type: 'age',
      verification_method: 'facial_recognition',
      status: 'rejected',
      age_threshold: 18,
    });
    const status = await t.request.get('/api/v1/users/verification-status').set(bearer(token)).expect(200);
    expect(status.body.age_verified).toBe(false);
  });

  it('approves the same photo where configuration lets photos approve, and records the proven age', async () => {
    const { token: userToken, user } = await newUser(t);
    t.config.photoCanApprove = true;
    let response;
    try {
      response = await verifyAge(t, userToken, fixture(ADULT_MALE_40S), 'image').expect(200);
    } finally {
      t.config.photoCanApprove = false;
    }
    expect(response.body.status).toBe('approved');
    expect(response.body.message).toBe('Your age is verified: 18+.');
    const status = await t.request
      .get('/api/v1/users/verification-status')
      .set(bearer(userToken))
      .expect(200);
    expect(status.body).toMatchObject({
      age_verified: true,
      proven_min_age: 18,
      overall: 'partially_verified',
    });
    expect(
      new Date(status.body.age_verified_until as string).getTime() -
        new Date(status.body.age_verified_at as string).getTime(),
    ).toBe(t.config.verificationValidityMs);
    const audit = await t.db.models.AuditLog.findAll({
      where: { user_id: user.id, event_type: 'verification.completed' },
    });
    expect(audit).toHaveLength(1);
  });

  it('accepts only the partner age thresholds', async () => {
    const response = await verifyAge(t, token, fixture(ADULT_MALE_40S), 'image', 'verification.jpg', {
      age_threshold: '19',
    }).expect(422);
    expect(response.body.detail).toBe('age_threshold must be one of 12, 16, 18, 21');
    const ok = await verifyAge(t, token, fixture(ADULT_MALE_40S), 'image', 'verification.jpg', {
      age_threshold: '21',
    }).expect(200);
    expect(ok.body.age_threshold).toBe(21);
  });
});

describe.skipIf(!haveFaceFixtures)('age verification by camera: videos', () => {
  it('rejects a 5-second video of a still photo as not live, with every video field', async () => {
    const challenge = await newChallenge(t, token);
    const response = await verifyAge(
      t,
      token,
      stillVideo(fixture(ADULT_MALE_40S), 5),
      'video',
      'verification.webm',
      { challenge_id: challenge.id },
    ).expect(200);
    expect(response.body).toMatchObject({ status: 'rejected', is_live: false });
    expect(response.body.message).toMatch(/live recording/);
    expect(response.body.message).toMatch(/document/);
    expect(response.body.frames_analyzed).toBeGreaterThanOrEqual(30);
    expect(response.body.video_duration).toBeGreaterThan(4.5);
    expect(response.body.video_duration).toBeLessThanOrEqual(5.5);
    expect(response.body.live_percentage).toBeGreaterThan(50);
    expect(response.body.video_liveness).toMatchObject({ passed: false, blink: false });
    expect(response.body.eye_measurements.ear_series.length).toBeGreaterThan(0);
    expect(response.body.age_range).toEqual({ min: expect.any(Number), max: expect.any(Number) });
    // The challenge was checked too, and none of its steps was seen in a still.
    expect(response.body.extracted_data.challenge).toMatchObject({ id: challenge.id, passed: false });
    expect(response.body.extracted_data.challenge.steps.map((s: { action: string }) => s.action)).toEqual(
      challenge.steps.map((s) => s.action),
    );
  }, 120_000);
});

describe.skipIf(!haveFaceFixtures)('age verification by camera: bad input', () => {
  it('refuses each bad upload with a clear message, stores nothing and leaves the engine serving', async () => {
    const before = await stored(t);
    const jpeg = fixture(ADULT_MALE_40S);

    const empty = await verifyAge(t, token, Buffer.alloc(0), 'image').expect(422);
    expect(empty.body.detail).toBe('The uploaded file is empty');

    const pdfAsJpeg = await verifyAge(t, token, textPdf(), 'image', 'verification.jpg').expect(415);
    expect(pdfAsJpeg.body.detail).toBe('Please send a JPEG, PNG or WebP photo, or a WebM or MP4 video');

    const photoAsVideo = await verifyAge(t, token, jpeg, 'video', 'verification.webm', {
      challenge_id: (await newChallenge(t, token)).id,
    }).expect(415);
    expect(photoAsVideo.body.detail).toMatch(/media_type is video, but the file is a photo/);

    const truncated = await verifyAge(
      t,
      token,
      jpeg.subarray(0, Math.floor(jpeg.length * 0.6)),
      'image',
    ).expect(422);
    expect(truncated.body.code).toBe('verification.unreadable_image');
    expect(truncated.body.detail).toMatch(/could not be read/);

    const noFace = await verifyAge(t, token, await noFaceImage(), 'image').expect(422);
    expect(noFace.body).toMatchObject({
      code: 'verification.no_face',
      detail: expect.stringMatching(/No face was found/),
    });

    const two = await verifyAge(t, token, await twoFaces(jpeg, fixture(ADULT_FEMALE_30S)), 'image').expect(
      422,
    );
    expect(two.body.code).toBe('verification.multiple_faces');

    const long = await verifyAge(t, token, stillVideo(jpeg, 7, 5), 'video', 'verification.webm', {
      challenge_id: (await newChallenge(t, token)).id,
    }).expect(422);
    expect(long.body).toMatchObject({
      code: 'verification.video_too_long',
      detail: expect.stringMatching(/longer than 5 seconds/),
    });

    const broken = await verifyAge(t, token, corrupt(stillVideo(jpeg, 2, 5)), 'video', 'verification.webm', {
      challenge_id: (await newChallenge(t, token)).id,
    });
    expect(broken.status).toBe(422);
    expect(broken.body.code).toMatch(/verification\.(unreadable_video|no_face)/);

    const missing = await t.request
      .post('/api/v1/age-verification/verify-age')
      .set(bearer(token))
      .field('media_type', 'image')
      .expect(422);
    expect(missing.body.detail).toBe('Please take a photo or record a video first');

    expect(await stored(t)).toEqual(before);
    expect(engine.status()).toMatchObject({ ready: true, workers: 1, queued: 0 });
    const good = await verifyAge(t, token, jpeg, 'image').expect(200);
    expect(good.body.verification_id).toEqual(expect.any(String));
  }, 120_000);

  it('answers 503 with Retry-After when the engine queue is full', async () => {
    const video = stillVideo(fixture(ADULT_MALE_40S), 3, 10);
    // One running and two waiting fill the single worker's queue (maxQueue 2) for a few seconds.
    // Handlers are attached at once: with the queue full, a filler may itself be refused before the request below.
    const filling = [engine.analyzeVideo(video), engine.analyzeVideo(video), engine.analyzeVideo(video)].map(
      (analysis) => analysis.catch((error: unknown) => error),
    );
    try {
      const response = await verifyAge(t, token, fixture(ADULT_MALE_40S), 'image').expect(503);
      expect(response.body.code).toBe('verification.busy');
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all(filling);
    }
    expect(engine.status().queued).toBe(0);
  }, 120_000);
});
