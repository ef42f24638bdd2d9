import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { ffmpegPath } from '@attestly/models';
import { idCardPage, stillVideo as modelsStillVideo, passportPage } from '../../../models/test/media';
import type { TestApp } from './helpers';

/**
 * Media for the verification tests. Face photos are the FairFace fixtures (CC BY 4.0; attribution in
 * models/test/fixtures/ATTRIBUTION.md), read from the models package or from ../shared/data/fixtures; tests that
 * need them skip with a message when neither is present. Documents, videos and bad files are generated here.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE_DIRS = [
  path.resolve(here, '../../../models/test/fixtures'),
  path.resolve(here, '../../../../shared/data/fixtures'),
];

export const ADULT_MALE_40S = 'fixture_adult_male_40s_fairface_0063.jpg';
export const ADULT_FEMALE_30S = 'fixture_adult_female_30s_fairface_0024.jpg';

export function fixturePath(name: string): string | null {
  for (const dir of FIXTURE_DIRS) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

export const haveFaceFixtures =
  fixturePath(ADULT_MALE_40S) !== null && fixturePath(ADULT_FEMALE_30S) !== null;
if (!haveFaceFixtures) {
  console.warn(`Skipping face tests: FairFace fixtures not found in ${FIXTURE_DIRS.join(' or ')}`);
}

export const fixture = (name: string): Buffer => fs.readFileSync(fixturePath(name) as string);

/** A VP8 WebM of a still image: what a replayed printed or on-screen photo looks like to the camera. */
export const stillVideo = (image: Buffer, seconds: number, fps = 10): Buffer =>
  modelsStillVideo(image, seconds, fps);

/** Overwrites most bytes after the container header, as a broken upload would. */
export function corrupt(bytes: Buffer, from = 40): Buffer {
  const out = Buffer.from(bytes);
  for (let i = from; i < out.length; i += 3) out[i] = ((out[i] as number) * 31 + 7) & 0xff;
  return out;
}

export async function twoFaces(a: Buffer, b: Buffer): Promise<Buffer> {
  const left = await sharp(a).resize(448, 448).toBuffer();
  const right = await sharp(b).resize(448, 448).toBuffer();
  return sharp({ create: { width: 896, height: 448, channels: 3, background: '#808080' } })
    .composite([
      { input: left, left: 0, top: 0 },
      { input: right, left: 448, top: 0 },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}

export function noFaceImage(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><rect width="640" height="480" fill="#6a8caf"/><circle cx="200" cy="240" r="80" fill="#e0c080"/><rect x="380" y="120" width="160" height="240" fill="#405060"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

/** A minimal one-page PDF with no image in it. */
export const textPdf = () =>
  Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

/** A PDF that embeds a JPEG scan verbatim, as scanners produce. */
export function pdfWithJpeg(jpeg: Buffer, width: number, height: number): Buffer {
  return Buffer.concat([
    Buffer.from(
      `%PDF-1.4\n1 0 obj\n<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
    ),
    jpeg,
    Buffer.from('\nendstream\nendobj\n%%EOF\n'),
  ]);
}

/** ICAO 9303 part 3 §4.9 check digit (weights 7-3-1; '<' = 0, A–Z = 10–35), written out independently of models/. */
export function checkDigit(field: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i] as string;
    const value = c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    sum += value * (weights[i % 3] as number);
  }
  return String(sum % 10);
}

/** A TD3 (passport) MRZ with correct check digits (ICAO 9303 part 4). Dates are YYMMDD. */
export function td3(p: {
  state: string;
  surname: string;
  given: string;
  number: string;
  birth: string;
  sex: 'M' | 'F';
  expiry: string;
}): [string, string] {
  const line1 = `P<${p.state}${p.surname}<<${p.given.replace(/ /g, '<')}`.padEnd(44, '<').slice(0, 44);
  const number = p.number.padEnd(9, '<');
  const personal = '<'.repeat(14);
  const core = `${number}${checkDigit(number)}${p.state}${p.birth}${checkDigit(p.birth)}${p.sex}${p.expiry}${checkDigit(p.expiry)}${personal}<`;
  const composite = checkDigit(
    `${number}${checkDigit(number)}${p.birth}${checkDigit(p.birth)}${p.expiry}${checkDigit(p.expiry)}${personal}<`,
  );
  return [line1, `${core}${composite}`];
}

/**
 * The day the document tests' app clock is set to, and so the day their passports are dated from: the pages they
 * read are the same pictures every day. Pages dated from the real day once made these tests pass or fail with the
 * calendar, because the MRZ reader misread the digit after a run of fillers on some dates; the reader now reads
 * such digits again cell by cell (models/MODEL_CARD.md, "Reading the MRZ").
 */
export const DOCUMENT_TEST_DAY = new Date('2026-11-28T10:00:00Z');

/** YYMMDD of a date `years` before or after `from`. */
export function yymmdd(from: Date, years: number, days = 0): string {
  const date = new Date(
    Date.UTC(from.getUTCFullYear() + years, from.getUTCMonth(), from.getUTCDate() + days),
  );
  return `${String(date.getUTCFullYear() % 100).padStart(2, '0')}${String(date.getUTCMonth() + 1).padStart(2, '0')}${String(date.getUTCDate()).padStart(2, '0')}`;
}

/** A passport data page: a card, a portrait box, printed text and the two-line MRZ in a monospace font. */
export async function passportImage(
  lines: readonly string[],
  format: 'jpeg' | 'png' = 'jpeg',
): Promise<Buffer> {
  const esc = (s: string) => s.replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1250" height="880">
    <rect width="1250" height="880" fill="#f2efe6"/>
    <rect x="60" y="120" width="300" height="390" fill="#c8c2b5"/>
    <text x="420" y="170" font-family="DejaVu Sans" font-size="34" fill="#333">PASSPORT</text>
    <text x="420" y="240" font-family="DejaVu Sans" font-size="28" fill="#333">SPECIMEN</text>
    ${lines.map((l, i) => `<text x="40" y="${740 + i * 62}" font-family="DejaVu Sans Mono" font-size="44" fill="#111">${esc(l)}</text>`).join('')}
  </svg>`;
  const image = sharp(Buffer.from(svg));
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 88 }).toBuffer();
}

/**
 * A passport page with a portrait photo in its photo box (or none: the SPECIMEN forgery) and printed fields, rendered
 * from an SVG with sharp.
 */
export const passportWithPortrait = (
  lines: readonly string[],
  portrait: Buffer | null,
  printed?: string[],
): Promise<Buffer> => passportPage(lines, { portrait, printed });

/** A national identity card (TD1, three MRZ lines of 30) with a portrait and printed fields, rendered as above. */
export const idCardWithPortrait = (
  lines: readonly [string, string, string],
  portrait: Buffer | null,
  printed?: string[],
): Promise<Buffer> => idCardPage(lines, { portrait, printed });

/**
 * Signs up and signs in a user. Sign-ups are limited per address, so each user arrives from its own
 * documentation address (RFC 5737); the app must trust X-Forwarded-For (ATTESTLY_TRUST_PROXY=true).
 */
let users = 0;
export async function newUser(t: TestApp) {
  const from = `198.51.100.${++users}`;
  const email = `user-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  await t.request
    .post('/api/v1/users/register')
    .set('X-Forwarded-For', from)
    .send({ full_name: 'Test User', email, password })
    .expect(201);
  const login = await t.request
    .post('/api/v1/users/login')
    .set('X-Forwarded-For', from)
    .send({ email, password })
    .expect(200);
  return { email, token: login.body.access_token as string, user: login.body.user as { id: string } };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Counts of what verification left in the database: rows and kept media. */
export async function stored(t: TestApp) {
  return {
    verifications: await t.db.models.Verification.count(),
    media: await t.db.models.VerificationMedia.count(),
  };
}

/** Starts a video check: the liveness challenge (issue 23) that the next video of this user must answer. */
export async function newChallenge(t: TestApp, token: string) {
  const response = await t.request.post('/api/v1/age-verification/challenges').set(bearer(token)).expect(201);
  return response.body as {
    id: string;
    steps: Array<{ action: string; prompt: string; start_seconds: number; end_seconds: number }>;
    recording_seconds: number;
    tolerance_seconds: number;
    expires_at: string;
  };
}

/**
 * Genuine recordings of real people (../shared/data/live-videos; research/test use only, never copied into the
 * repository). labels.csv: live_022 shows a woman who looks to one side, blinks and looks to the other within its
 * first five seconds (actions wink;expressions;look_down;turn_left;turn_right). The tests that need an approved
 * video use its first five seconds, cut as the camera screen records them (nothing else changed), and a frame of
 * it as the portrait of her test passport. Null (tests skip) when the folder or the clip is absent.
 */
export const LIVE_VIDEOS = path.resolve(here, '../../../../shared/data/live-videos');
const GENUINE = { file: 'live_022.mp4', actions: ['turn_left', 'turn_right'], portraitAt: '2.6' };

function cutGenuine(): { clip: Buffer; portrait: Buffer } | null {
  const labels = path.join(LIVE_VIDEOS, 'labels.csv');
  const source = path.join(LIVE_VIDEOS, GENUINE.file);
  if (!fs.existsSync(labels) || !fs.existsSync(source)) return null;
  const row = fs
    .readFileSync(labels, 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`${GENUINE.file},`));
  if (!row || !GENUINE.actions.every((action) => row.includes(action))) return null;
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'attestly-live-'));
  const clip = path.join(dir, 'clip.mp4');
  const portrait = path.join(dir, 'portrait.jpg');
  const quiet = ['-loglevel', 'error', '-y'];
  execFileSync(ffmpegPath(), [
    ...quiet,
    ...['-i', source, '-t', '5', '-an', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', clip],
  ]);
  execFileSync(ffmpegPath(), [...quiet, '-ss', GENUINE.portraitAt, '-i', source, '-frames:v', '1', portrait]);
  const out = { clip: fs.readFileSync(clip), portrait: fs.readFileSync(portrait) };
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

export const genuineRecording = cutGenuine();
if (!genuineRecording) {
  console.warn(`Skipping approvals of a genuine video: ${GENUINE.file} not found in ${LIVE_VIDEOS}`);
}
