import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { VisionInputError } from './errors';
import type { RgbImage } from './image-decode';
import { nodeRequire } from './model-files';

export interface DecodedVideo {
  frames: { timeSeconds: number; image: RgbImage }[];
  durationSeconds: number;
}

export interface VideoDecodeOptions {
  fps: number;
  maxSeconds: number;
  /** Container durations are rounded up by recorders; a 5-s recording may report 5.1 s. */
  toleranceSeconds: number;
  maxWidth: number;
  timeoutMs: number;
}

export const defaultVideoDecodeOptions: VideoDecodeOptions = {
  fps: 8,
  maxSeconds: 5,
  toleranceSeconds: 0.5,
  maxWidth: 640,
  timeoutMs: 15_000,
};

/** The static binary from @ffmpeg-installer/ffmpeg; `ffmpeg` on PATH when that package is missing. */
export function ffmpegPath(): string {
  try {
    return (nodeRequire()('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch {
    return 'ffmpeg';
  }
}

function run(
  args: string[],
  timeoutMs: number,
): Promise<{ stdout: Buffer; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 64_000) err += d.toString();
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out), stderr: err, code });
    });
  });
}

/**
 * Decodes a WebM/MP4 clip to RGB frames sampled at `fps`. Decoding stops just past the allowed length, so a long
 * upload costs no more than a short one; whether it was too long is read from the frames actually produced,
 * because MediaRecorder WebM files usually carry no duration in their header.
 */
export async function decodeVideo(
  bytes: Uint8Array,
  options: VideoDecodeOptions = defaultVideoDecodeOptions,
): Promise<DecodedVideo> {
  if (!bytes.length) throw new VisionInputError('unreadable_video');
  // A file, not a pipe: MP4s with the index at the end need a seekable input.
  const file = path.join(os.tmpdir(), `attestly-video-${randomUUID()}`);
  await fs.writeFile(file, bytes, { mode: 0o600 });
  try {
    const limit = options.maxSeconds + options.toleranceSeconds + 1 / options.fps;
    const { stdout, stderr, code } = await run(
      [
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        'info',
        '-i',
        file,
        '-t',
        limit.toFixed(3),
        '-an',
        '-vf',
        `fps=${options.fps},scale='min(${options.maxWidth},iw)':-2`,
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        'pipe:1',
      ],
      options.timeoutMs,
    );
    const dims = [...stderr.matchAll(/Video: rawvideo[^\n]*?, (\d{2,5})x(\d{2,5})/g)].pop();
    if (code !== 0 || !dims || !stdout.length) throw new VisionInputError('unreadable_video');
    const width = Number(dims[1]);
    const height = Number(dims[2]);
    const frameBytes = width * height * 3;
    const count = Math.floor(stdout.length / frameBytes);
    if (count === 0) throw new VisionInputError('unreadable_video');
    const durationSeconds = count / options.fps;
    if (durationSeconds > options.maxSeconds + options.toleranceSeconds)
      throw new VisionInputError('video_too_long');
    const frames = Array.from({ length: count }, (_, i) => ({
      timeSeconds: i / options.fps,
      image: {
        data: new Uint8Array(stdout.buffer, stdout.byteOffset + i * frameBytes, frameBytes),
        width,
        height,
      },
    }));
    return { frames, durationSeconds };
  } finally {
    await fs.rm(file, { force: true });
  }
}
