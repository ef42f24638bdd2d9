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
  onOutput?: (stdout: Buffer | null, stderr: string) => void,
  stdin?: Uint8Array,
): Promise<{ stdout: Buffer; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), args, { stdio: ['pipe', 'pipe', 'pipe'] });
    // ffmpeg may stop reading early (clip too long, unreadable): a closed pipe is expected then.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin ?? null);
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      out.push(d);
      onOutput?.(d, err);
    });
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 64_000) err += d.toString();
      onOutput?.(null, err);
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

const DIMS = /Video: rawvideo[^\n]*?, (\d{2,5})x(\d{2,5})/g;

/** Hands decoded frames to a caller in batches while ffmpeg is still running (see `decodeVideo`). */
export interface FrameStream {
  batch: number;
  onFrames(frames: DecodedVideo['frames']): void;
}

/**
 * Decodes a WebM/MP4 clip to RGB frames sampled at `fps`. Decoding stops just past the allowed length, so a long
 * upload costs no more than a short one; whether it was too long is read from the frames actually produced,
 * because MediaRecorder WebM files usually carry no duration in their header. With `stream`, complete batches of
 * frames are also handed over as they are decoded, so analysis can start before ffmpeg finishes; the promise still
 * rejects (unreadable, too long) for the clip as a whole, and the caller must then discard what it was handed.
 */
export async function decodeVideo(
  bytes: Uint8Array,
  options: VideoDecodeOptions = defaultVideoDecodeOptions,
  stream?: FrameStream,
): Promise<DecodedVideo> {
  if (!bytes.length) throw new VisionInputError('unreadable_video');
  // Uploaded media must not touch the disk (DESIGN.md §5). WebM/Matroska (what browsers record) streams through a
  // pipe. MP4 may keep its index at the end and then needs a seekable input: it goes to a RAM-backed tmpfs
  // (/dev/shm) where the host has one, owner-only and removed at once; only hosts without /dev/shm fall back to
  // the temp directory.
  const matroska = bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3;
  let file: string | null = null;
  if (!matroska) {
    const ram = await fs
      .stat('/dev/shm')
      .then((info) => info.isDirectory())
      .catch(() => false);
    file = path.join(ram ? '/dev/shm' : os.tmpdir(), `attestly-video-${randomUUID()}`);
    await fs.writeFile(file, bytes, { mode: 0o600 });
  }
  const maxFrames = Math.floor((options.maxSeconds + options.toleranceSeconds) * options.fps);
  let frameBytes = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let streamed = 0;
  let handed = 0;
  let batch: DecodedVideo['frames'] = [];
  const onOutput = (chunk: Buffer | null, stderr: string) => {
    if (!stream) return;
    if (chunk) {
      pending.push(chunk);
      pendingBytes += chunk.length;
    }
    if (!frameBytes) {
      const dims = [...stderr.matchAll(DIMS)].pop();
      if (!dims) return;
      frameBytes = Number(dims[1]) * Number(dims[2]) * 3;
    }
    if (pendingBytes < frameBytes) return;
    const joined = Buffer.concat(pending);
    const whole = Math.floor(joined.length / frameBytes);
    const [width, height] = [...stderr.matchAll(DIMS)].pop()!.slice(1).map(Number) as [number, number];
    for (let i = 0; i < whole; i++) {
      // Frames past the allowed length are never handed over: the clip is refused when ffmpeg ends.
      if (streamed >= maxFrames) break;
      batch.push({
        timeSeconds: streamed++ / options.fps,
        image: { data: new Uint8Array(joined.subarray(i * frameBytes, (i + 1) * frameBytes)), width, height },
      });
      if (batch.length === stream.batch) {
        stream.onFrames(batch);
        handed += batch.length;
        batch = [];
      }
    }
    const rest = joined.subarray(whole * frameBytes);
    pending = rest.length ? [rest] : [];
    pendingBytes = rest.length;
  };
  try {
    const limit = options.maxSeconds + options.toleranceSeconds + 1 / options.fps;
    const { stdout, stderr, code } = await run(
      [
        '-hide_banner',
        '-loglevel',
        'info',
        '-i',
        file ?? 'pipe:0',
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
      onOutput,
      file ? undefined : bytes,
    );
    const dims = [...stderr.matchAll(DIMS)].pop();
    if (code !== 0 || !dims || !stdout.length) throw new VisionInputError('unreadable_video');
    const width = Number(dims[1]);
    const height = Number(dims[2]);
    const size = width * height * 3;
    const count = Math.floor(stdout.length / size);
    if (count === 0) throw new VisionInputError('unreadable_video');
    const durationSeconds = count / options.fps;
    if (durationSeconds > options.maxSeconds + options.toleranceSeconds)
      throw new VisionInputError('video_too_long');
    const frames = Array.from({ length: count }, (_, i) => ({
      timeSeconds: i / options.fps,
      image: {
        data: new Uint8Array(stdout.buffer, stdout.byteOffset + i * size, size),
        width,
        height,
      },
    }));
    if (stream) {
      // Whatever the stream has not handed over yet (the last, partial batch) goes now.
      const rest = frames.slice(handed);
      for (let i = 0; i < rest.length; i += stream.batch) stream.onFrames(rest.slice(i, i + stream.batch));
    }
    return { frames, durationSeconds };
  } finally {
    if (file) await fs.rm(file, { force: true });
  }
}
