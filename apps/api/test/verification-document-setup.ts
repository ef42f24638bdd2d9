import type supertest from 'supertest';
import { expect } from 'vitest';
import {
  checkChallenge,
  createVisionEngine,
  defaultChallengeCheckOptions,
  type VisionEngine,
} from '@attestly/models';
import { buildTd1 } from '../../../models/src/document/mrz-parse';
import { drawChallengeSteps } from '../src/modules/users/verification/challenge';
import { ManualClock } from '../src/lib/clock';
import { createTestApp, type TestApp } from './helpers';
import { SeededRandom } from './seeded-random';
import {
  bearer,
  DOCUMENT_TEST_DAY,
  genuineRecording,
  haveFaceFixtures,
  idCardWithPortrait,
  newChallenge,
  passportWithPortrait,
  td3,
  yymmdd,
} from './verification-media';

export const clip = genuineRecording?.clip as Buffer;
/** Her portrait: a frame of the recording. */
export const holderFace = genuineRecording?.portrait as Buffer;
export const withHolder = haveFaceFixtures && genuineRecording !== null;

/**
 * The app and engine a document test file shares across its tests (start() in beforeAll, close() in afterAll), and
 * the documents and uploads its tests make on it (verification-document.test.ts, verification-document-limits.test.ts).
 */
export function documentFile() {
  let engine: VisionEngine;
  let t: TestApp;
  const random = new SeededRandom(1);
  let clipSeed = 0;
  /** When the file started: what the holder passports are dated from (holderPassport). */
  let filedAt: Date;

  /** `holder: false` for a file that uploads no live video: the genuine clip's challenge seed is not looked for. */
  async function start(options: { holder?: boolean } = {}): Promise<TestApp> {
    const holder = (options.holder ?? true) && withHolder;
    engine = createVisionEngine({ workers: holder ? 2 : 1 });
    t = await createTestApp({
      vision: engine,
      env: { ATTESTLY_TRUST_PROXY: 'true' },
      random,
      clock: new ManualClock(DOCUMENT_TEST_DAY),
    });
    await engine.ready;
    filedAt = t.clock.now();
    if (holder) {
      const { track = [] } = await engine.analyzeVideo(clip, { thresholds: [18] });
      clipSeed =
        Array.from({ length: 20_000 }, (_, i) => i + 1).find(
          (seed) =>
            checkChallenge(track, drawChallengeSteps(new SeededRandom(seed)), defaultChallengeCheckOptions)
              .passed,
        ) ?? 0;
      expect(clipSeed).toBeGreaterThan(0);
    }
    return t;
  }
  async function close() {
    await t?.close();
    await engine?.close();
  }

  const passport = (birthYearsAgo: number, expiryYears = 5) => {
    const now = t.clock.now();
    return td3({
      state: 'GBR',
      surname: 'HOLMES',
      given: 'SARAH JANE',
      number: 'GB1234567',
      birth: yymmdd(now, -birthYearsAgo, -10),
      sex: 'F',
      expiry: yymmdd(now, expiryYears),
    });
  };

  type Fields = Record<string, string>;
  /** POST /users/verify/document: a document alone, or with a live video answering a fresh challenge. */
  function upload(token: string, file: Buffer, name: string, fields?: Fields): supertest.Test;
  function upload(
    token: string,
    file: Buffer,
    name: string,
    fields: Fields | undefined,
    video: Buffer,
  ): { expect(status: number): Promise<supertest.Response> };
  function upload(
    token: string,
    file: Buffer,
    name: string,
    fields: Fields = { document_type: 'passport' },
    video?: Buffer,
  ) {
    const send = (challengeId: string | null) => {
      let request = t.request.post('/api/v1/users/verify/document').set(bearer(token));
      for (const [key, value] of Object.entries(fields)) request = request.field(key, value);
      if (challengeId) request = request.field('challenge_id', challengeId);
      request = request.attach('file', file, name);
      return video ? request.attach('selfie_video', video, 'selfie.webm') : request;
    };
    if (!video) return send(null);
    return { expect: async (status: number) => send(await clipChallenge(token)).expect(status) };
  }

  /**
   * A fresh challenge of this user, the one the synthetic clip's motions answer. Challenges are fetched one at a time
   * (uploads may race), so each draw starts from the reseeded source.
   */
  let challenges: Promise<unknown> = Promise.resolve();
  function clipChallenge(token: string): Promise<string> {
    const next = challenges.then(async () => {
      random.reseed(clipSeed);
      return (await newChallenge(t, token)).id;
    });
    challenges = next.catch(() => undefined);
    return next;
  }

  /** A passport of the woman in the genuine recording (or another face, or none), with a document number of its own. */
  const holderPassport = (
    portrait: Buffer | null,
    options: { number?: string; years?: number; printedBirth?: string } = {},
  ) => {
    // Dated from the file's start, not the app clock (the purge test moves it 30 days), so a page is the same picture
    // whichever tests ran before it.
    const now = filedAt;
    const years = options.years ?? 30;
    const lines = td3({
      state: 'GBR',
      surname: 'HOLMES',
      given: 'SARAH JANE',
      number: options.number ?? 'GB2345678',
      birth: yymmdd(now, -years, -10),
      sex: 'F',
      expiry: yymmdd(now, 5),
    });
    const birth = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() - 10));
    const printed = (d: Date) =>
      `${String(d.getUTCDate()).padStart(2, '0')}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${d.getUTCFullYear()}`;
    return passportWithPortrait(lines, portrait, [
      'HOLMES',
      'SARAH JANE',
      `Date of birth ${options.printedBirth ?? printed(birth)}`,
    ]);
  };

  /** Her national identity card (TD1), dated like her passport. */
  const holderIdCard = (portrait: Buffer | null, number: string) => {
    const lines = buildTd1({
      state: 'GBR',
      surname: 'HOLMES',
      given: 'SARAH JANE',
      number,
      nationality: 'GBR',
      birth: yymmdd(filedAt, -30, -10),
      sex: 'F',
      expiry: yymmdd(filedAt, 8),
    });
    return idCardWithPortrait(lines, portrait, ['HOLMES', 'SARAH JANE']);
  };

  return { start, close, passport, upload, holderPassport, holderIdCard };
}
