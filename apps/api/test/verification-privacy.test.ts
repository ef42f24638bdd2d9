// The guard must be in place before anything below creates a worker or a socket (see network-guard.cjs).
import './network-guard-install';
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVisionEngine, type VisionEngine } from '@attestly/models';
import { ManualClock } from '../src/lib/clock';
import { createTestApp, type TestApp } from './helpers';
import { guardLog } from './network-guard-install';
import {
  ADULT_MALE_40S,
  bearer,
  DOCUMENT_TEST_DAY,
  fixture,
  haveFaceFixtures,
  newChallenge,
  newUser,
  passportImage,
  stillVideo,
  td3,
  yymmdd,
} from './verification-media';

/**
 * DESIGN.md §2/§5: photos, videos and documents are analysed on the box and never leave it. With every thread of
 * this process guarded, a photo, a video and a document go through the real API and engine; afterwards the log
 * must show the guard active in the inference and OCR workers, and no connection or lookup beyond loopback.
 */
interface GuardEntry {
  kind: string;
  thread: number;
  main: boolean;
  host?: string;
  url?: string;
  allowed?: boolean;
  file?: string;
  args?: string[];
}
const entries = (): GuardEntry[] =>
  fs
    .readFileSync(guardLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as GuardEntry);

let engine: VisionEngine;
let t: TestApp;

beforeAll(async () => {
  engine = createVisionEngine({ workers: 1 });
  t = await createTestApp({
    vision: engine,
    env: { ATTESTLY_TRUST_PROXY: 'true' },
    clock: new ManualClock(DOCUMENT_TEST_DAY),
  });
  await engine.ready;
});
afterAll(async () => {
  await t?.close();
  await engine?.close();
  fs.rmSync(guardLog, { force: true });
});

describe('the network guard itself', () => {
  it('records and blocks a connection to a public address, in the test process and in a worker', async () => {
    const { Socket } = await import('node:net');
    const error = await new Promise<Error>((resolve) =>
      new Socket().on('error', resolve).connect(443, '192.0.2.10'),
    );
    expect(error.message).toMatch(/network guard: blocked connection to 192.0.2.10/);
    const worker = new Worker(
      `const s = new (require('node:net').Socket)(); s.on('error', (e) => require('node:worker_threads').parentPort.postMessage(e.message)); s.connect(80, '198.51.100.7');`,
      { eval: true },
    );
    const message = await new Promise<string>((resolve) => worker.once('message', resolve));
    await worker.terminate();
    expect(message).toMatch(/blocked connection to 198.51.100.7/);
    const blocked = entries().filter((entry) => entry.kind === 'connect' && entry.allowed === false);
    expect(blocked.map((entry) => entry.host)).toEqual(['192.0.2.10', '198.51.100.7']);
    expect(blocked[1]?.main).toBe(false);
  });
});

describe.skipIf(!haveFaceFixtures)('on-box analysis', () => {
  it('verifies a photo, a video and a document without any connection or lookup beyond loopback', async () => {
    const startedAt = entries().length;
    const { token } = await newUser(t);
    await t.request
      .post('/api/v1/age-verification/verify-age')
      .set(bearer(token))
      .field('media_type', 'image')
      .attach('media_file', fixture(ADULT_MALE_40S), 'verification.jpg')
      .expect(200);
    await t.request
      .post('/api/v1/age-verification/verify-age')
      .set(bearer(token))
      .field('media_type', 'video')
      .field('challenge_id', (await newChallenge(t, token)).id)
      .attach('media_file', stillVideo(fixture(ADULT_MALE_40S), 3), 'verification.webm')
      .expect(200);
    const now = t.clock.now();
    const mrz = td3({
      state: 'FRA',
      surname: 'MARTIN',
      given: 'CLAIRE',
      number: 'FR9876543',
      birth: yymmdd(now, -35),
      sex: 'F',
      expiry: yymmdd(now, 4),
    });
    const document = await t.request
      .post('/api/v1/users/verify/document')
      .set(bearer(token))
      .field('document_type', 'passport')
      .field('challenge_id', (await newChallenge(t, token)).id)
      .attach('file', await passportImage(mrz), 'passport.jpg')
      .attach('selfie_video', stillVideo(fixture(ADULT_MALE_40S), 3), 'selfie.webm')
      .expect(201);
    // The whole holder check ran (MRZ, printed zone, portrait search, video): the still clip fails its challenge and
    // the page has no portrait, so a reviewer decides — what matters here is that nothing left the box.
    expect(document.body).toMatchObject({
      status: 'pending',
      document_analysis: {
        check_digits_valid: true,
        holder_binding: { live_video: 'failed', portrait_found: false },
      },
    });

    const log = entries();
    const during = log.slice(startedAt);
    // The inference worker and the OCR worker both ran with the guard loaded.
    const guarded = new Set(
      log.filter((entry) => entry.kind === 'installed' && !entry.main).map((entry) => entry.thread),
    );
    const started = log.filter((entry) => entry.kind === 'worker') as Array<
      GuardEntry & { child: number; entry: string }
    >;
    const inference = started.filter((worker) => /vision-worker/.test(worker.entry));
    const ocr = started.filter((worker) => /tesseract/.test(worker.entry));
    expect(inference.length).toBeGreaterThanOrEqual(1);
    expect(ocr.length).toBeGreaterThanOrEqual(1);
    for (const worker of [...inference, ...ocr]) expect(guarded.has(worker.child), worker.entry).toBe(true);
    const network = during.filter((entry) => ['connect', 'dns', 'udp', 'fetch'].includes(entry.kind));
    expect(network.filter((entry) => entry.allowed === false)).toEqual([]);
    for (const entry of network)
      expect(entry.host ?? entry.url, JSON.stringify(entry)).toMatch(/^(127\.|::1$|localhost$|data:|file:)/);
    // ffmpeg decodes from a local file to a pipe: no URL of any network protocol on its command line.
    const spawns = during.filter((entry) => entry.kind === 'spawn');
    expect(spawns.length).toBeGreaterThan(0);
    for (const spawn of spawns) {
      expect(
        spawn.args?.some((arg) => /^(https?|rtmp|rtsp|tcp|udp|ftp|tls|srt):/i.test(arg)),
        JSON.stringify(spawn.args),
      ).toBe(false);
    }
  }, 120_000);
});
