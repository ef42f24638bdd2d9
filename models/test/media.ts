import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ffmpegPath } from '../src/video-decode';

export const fixturesDir = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures');
export const fixture = (name: string) => fs.readFileSync(path.join(fixturesDir, name));
export const adultMale40s = 'fixture_adult_male_40s_fairface_0063.jpg';
export const adultFemale30s = 'fixture_adult_female_30s_fairface_0024.jpg';

/** A VP8 WebM of a still image, as a replay of a printed or on-screen photo would look. */
export function stillVideo(image: Buffer, seconds: number, fps = 15): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attestly-still-'));
  try {
    const input = path.join(dir, 'in.jpg');
    const out = path.join(dir, 'out.webm');
    fs.writeFileSync(input, image);
    execFileSync(ffmpegPath(), [
      '-hide_banner',
      '-loglevel',
      'error',
      '-loop',
      '1',
      '-i',
      input,
      '-t',
      String(seconds),
      '-r',
      String(fps),
      '-vf',
      'scale=640:-2',
      '-c:v',
      'libvpx',
      '-b:v',
      '1M',
      '-pix_fmt',
      'yuv420p',
      '-an',
      '-y',
      out,
    ]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function sideBySide(a: Buffer, b: Buffer): Promise<Buffer> {
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

export interface FaceLandmarks {
  face: { cx: number; width: number };
  eyes: { x0: number; x1: number; top: number; bottom: number }[];
}

/**
 * Where the face and eyes of a fixture lie once resized to 640×640 (measured once with the engine's landmark
 * pass: face box centre and width, each eye's corners and lid extent from the mesh). The man wears glasses.
 */
export const adultMale40sLandmarks: FaceLandmarks = {
  face: { cx: 308, width: 329 },
  eyes: [
    { x0: 255, x1: 292, top: 262, bottom: 272 },
    { x0: 348, x1: 385, top: 263, bottom: 271 },
  ],
};
export const adultFemale30sLandmarks: FaceLandmarks = {
  face: { cx: 314, width: 332 },
  eyes: [
    { x0: 256, x1: 295, top: 257, bottom: 271 },
    { x0: 344, x1: 381, top: 259, bottom: 269 },
  ],
};

export interface ChallengeScript {
  /** Head yaw in degrees at time t (s), synthesised by rotating the face about a vertical cylinder. */
  yawDeg(t: number): number;
  /** Whether the eyes are shut at time t. */
  eyesClosed(t: number): boolean;
}

/** A turn to one side and back, a blink, then a turn to the other side: what the challenge screen asks for. */
export const headTurnAndBlink: ChallengeScript = {
  yawDeg: (t) =>
    t >= 1 && t < 2.5
      ? 25 * Math.sin(((t - 1) / 1.5) * Math.PI)
      : t >= 3.5 && t < 5
        ? -25 * Math.sin(((t - 3.5) / 1.5) * Math.PI)
        : 0,
  eyesClosed: (t) => t >= 3 && t < 3.25,
};

/**
 * A synthetic "live" clip made from one photo: each frame warps the face as if the head turned (cylinder model:
 * a point at angle φ on a cylinder of the face's half-width moves to φ + yaw) and paints the eyes shut (the
 * aperture filled by blending upper and lower lid skin, with a dark lash line). Crude next to a real recording,
 * but it exercises the liveness signals with motion the detector has to follow.
 */
export async function syntheticChallengeVideo(
  image: Buffer,
  landmarks: FaceLandmarks,
  script: ChallengeScript = headTurnAndBlink,
  seconds = 5,
  fps = 10,
): Promise<Buffer> {
  const size = 640;
  const { data } = await sharp(image)
    .resize(size, size)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const frames: Buffer[] = [];
  const R = landmarks.face.width * 0.55;
  const { cx } = landmarks.face;
  for (let f = 0; f < Math.round(seconds * fps); f++) {
    const t = f / fps;
    const src = Buffer.from(data);
    if (script.eyesClosed(t)) {
      for (const eye of landmarks.eyes) {
        const top = eye.top - 3;
        const bottom = eye.bottom + 3;
        for (let x = eye.x0 - 3; x <= eye.x1 + 3; x++) {
          for (let y = top; y <= bottom; y++) {
            const w = (y - top) / (bottom - top);
            const lash = Math.abs(y - (top + 0.6 * (bottom - top))) < 1 ? 0.55 : 1;
            for (let c = 0; c < 3; c++) {
              const above = data[((top - 2) * size + x) * 3 + c]!;
              const below = data[((bottom + 2) * size + x) * 3 + c]!;
              src[(y * size + x) * 3 + c] = Math.round(((1 - w) * above + w * below) * lash);
            }
          }
        }
      }
    }
    const theta = (script.yawDeg(t) * Math.PI) / 180;
    const out = Buffer.from(src);
    if (theta !== 0) {
      for (let x = Math.ceil(cx - R); x < cx + R; x++) {
        const phi = Math.asin(Math.max(-1, Math.min(1, (x - cx) / R))) - theta;
        const sx = Math.round(cx + R * Math.sin(Math.max(-Math.PI / 2, Math.min(Math.PI / 2, phi))));
        for (let y = 0; y < size; y++)
          for (let c = 0; c < 3; c++) out[(y * size + x) * 3 + c] = src[(y * size + sx) * 3 + c]!;
      }
    }
    frames.push(out);
  }
  return execFileSync(
    ffmpegPath(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      `${size}x${size}`,
      '-r',
      String(fps),
      '-i',
      'pipe:0',
      '-c:v',
      'libvpx',
      '-b:v',
      '1M',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'webm',
      'pipe:1',
    ],
    { input: Buffer.concat(frames), maxBuffer: 64 * 2 ** 20 },
  );
}

/** Where a document's parts go on its picture. */
interface DocumentLayout {
  width: number;
  height: number;
  background: string;
  /** The portrait box. */
  photo: { left: number; top: number; width: number; height: number };
  /** The title's baseline and size; the printed fields' first line, spacing and size (both start at `text.x`). */
  title: { text: string; y: number; size: number };
  text: { x: number; y: number; step: number; size: number };
  /** The MRZ's first baseline, line spacing and size. */
  mrz: { y: number; step: number; size: number };
}

/** A document rendered from an SVG, with the portrait (when given) composited into its photo box. */
async function documentPage(
  layout: DocumentLayout,
  mrz: readonly string[],
  options: { portrait?: Buffer | null; printed?: string[] },
): Promise<Buffer> {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const printed = options.printed ?? ['SPECIMEN'];
  const { width, height, photo, text } = layout;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" fill="${layout.background}"/>
    <rect x="${photo.left}" y="${photo.top}" width="${photo.width}" height="${photo.height}" fill="#c8c2b5"/>
    <text x="${text.x}" y="${layout.title.y}" font-family="DejaVu Sans" font-size="${layout.title.size}" fill="#333">${layout.title.text}</text>
    ${printed.map((l, i) => `<text x="${text.x}" y="${text.y + i * text.step}" font-family="DejaVu Sans" font-size="${text.size}" fill="#333">${esc(l)}</text>`).join('')}
    ${mrz.map((l, i) => `<text x="40" y="${layout.mrz.y + i * layout.mrz.step}" font-family="DejaVu Sans Mono" font-size="${layout.mrz.size}" fill="#111">${esc(l)}</text>`).join('')}
  </svg>`;
  const page = sharp(Buffer.from(svg));
  if (!options.portrait) return page.jpeg({ quality: 88 }).toBuffer();
  const portrait = await sharp(options.portrait)
    .resize(photo.width, photo.height, { fit: 'cover' })
    .toBuffer();
  return page
    .composite([{ input: portrait, left: photo.left, top: photo.top }])
    .jpeg({ quality: 88 })
    .toBuffer();
}

/**
 * A passport data page rendered from an SVG: a card, printed fields, the two-line MRZ in a monospace font and,
 * when given, a portrait photo in the photo box (none: the "SPECIMEN" forgery that carries only a valid MRZ).
 */
export const passportPage = (
  mrz: readonly string[],
  options: { portrait?: Buffer | null; printed?: string[] } = {},
): Promise<Buffer> =>
  documentPage(
    {
      width: 1250,
      height: 880,
      background: '#f2efe6',
      photo: { left: 60, top: 120, width: 300, height: 390 },
      title: { text: 'PASSPORT', y: 170, size: 34 },
      text: { x: 420, y: 240, step: 50, size: 28 },
      mrz: { y: 740, step: 62, size: 44 },
    },
    mrz,
    options,
  );

/**
 * An identity card (ID-1, 85.6 × 54 mm at about 300 dpi) rendered from an SVG: a portrait box, printed fields and
 * the three-line TD1 MRZ in a monospace font along the bottom.
 */
export const idCardPage = (
  mrz: readonly [string, string, string],
  options: { portrait?: Buffer | null; printed?: string[] } = {},
): Promise<Buffer> =>
  documentPage(
    {
      width: 1010,
      height: 640,
      background: '#e9eef2',
      photo: { left: 40, top: 90, width: 250, height: 320 },
      title: { text: 'IDENTITY CARD', y: 80, size: 30 },
      text: { x: 330, y: 150, step: 44, size: 26 },
      mrz: { y: 500, step: 52, size: 42 },
    },
    mrz,
    options,
  );
