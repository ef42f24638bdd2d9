import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTd3 } from '../src/document/mrz-parse';
import { createVisionEngine, type VisionEngine } from '../src/index';
import {
  adultFemale30s,
  adultFemale30sLandmarks,
  adultMale40s,
  fixture,
  headTurnAndBlink,
  passportPage,
  syntheticChallengeVideo,
} from './media';

/**
 * The document-holder check with the real models. The challenge clip is synthetic (a photo warped as if the head
 * turned, eyes painted shut): its warp moves Human's yaw estimate by only ~11° (MODEL_CARD.md), so this engine asks
 * for an 8° turn and counts a blink at 0.78 of the open-eye ratio. Everything else is the production path.
 */
let engine: VisionEngine;
let clip: Buffer;
const mrz = buildTd3({
  state: 'UTO',
  surname: 'ERIKSSON',
  given: 'ANNA MARIA',
  number: 'L898902C3',
  nationality: 'UTO',
  birth: '900314',
  sex: 'F',
  expiry: '310502',
});

beforeAll(async () => {
  engine = createVisionEngine({
    workers: 2,
    liveness: { minYawSpanDeg: 8, blink: { closedRatio: 0.78, openRatio: 0.85, maxBlinkSeconds: 0.8 } },
  });
  clip = await syntheticChallengeVideo(fixture(adultFemale30s), adultFemale30sLandmarks, headTurnAndBlink);
  await engine.ready;
}, 120_000);

afterAll(async () => {
  await engine?.close();
});

describe('checkHolder', () => {
  it('matches the portrait on the document with the live video of the same face', async () => {
    const page = await passportPage(mrz, { portrait: fixture(adultFemale30s) });
    const r = await engine.checkHolder(page, clip, { thresholds: [18] });
    expect(r.portrait).toMatchObject({ found: true, problem: null });
    expect(r.video_problem).toBeNull();
    // The synthetic clip is one photo warped as if it turned, with eyes pasted shut: since issue 23 it is refused as
    // live (2-D motion), which the holder check reports without hiding the face match.
    expect(r.video?.is_live).toBe(false);
    expect(r.video?.video_liveness.reasons).toContain('motion_is_2d_warp');
    expect(r.face_match?.match).toBe(true);
    expect(r.face_match!.similarity).toBeGreaterThanOrEqual(r.face_match!.threshold);
    expect(r.face_match!.frame_similarities.length).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('does not match a different person, and finds no portrait on the SPECIMEN forgery', async () => {
    const other = await engine.checkHolder(
      await passportPage(mrz, { portrait: fixture(adultMale40s) }),
      clip,
    );
    expect(other.portrait.found).toBe(true);
    expect(other.face_match?.match).toBe(false);
    expect(other.face_match!.similarity).toBeLessThan(0.7);

    const forged = await engine.checkHolder(await passportPage(mrz), clip);
    expect(forged.portrait).toMatchObject({ found: false, problem: 'no_face' });
    expect(forged.face_match).toBeNull();
    expect(forged.video).not.toBeNull();
  }, 120_000);

  it('reports a video it cannot use instead of throwing', async () => {
    const page = await passportPage(mrz, { portrait: fixture(adultFemale30s) });
    const r = await engine.checkHolder(page, Buffer.from('not a video at all'));
    expect(r.video).toBeNull();
    expect(r.video_problem?.code).toMatch(/unreadable_video|no_face/);
    expect(r.portrait.found).toBe(true);
    expect(r.face_match).toBeNull();
  }, 120_000);
});
