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
