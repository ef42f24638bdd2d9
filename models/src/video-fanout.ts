import { VisionInputError } from './errors';
import type { FaceObservation, FrameScan, VideoObservation } from './types';
import { decodeVideo, type DecodedVideo, type VideoDecodeOptions } from './video-decode';
import { chooseBestFrames, noClearFace } from './video-observer';
import type { PoolJob, WorkerPool } from './worker-pool';
import type { WorkerValue } from './worker-protocol';

/**
 * Decode once here (ffmpeg is its own process) and fan the landmark pass out over the pool in time-ordered
 * chunks as ffmpeg produces them, merge in order, then run the age models on the best frames, also in parallel.
 * A video holds one queue place from before decoding until its last job is queued (MODEL_CARD.md, step 5).
 */
export async function observeVideoInPool(
  p: WorkerPool,
  bytes: Uint8Array,
  video: VideoDecodeOptions,
): Promise<VideoObservation & { decodeMs: number }> {
  const reservation = p.reserve();
  const scanning: Promise<PromiseSettledResult<WorkerValue>[]>[] = [];
  let width = 0;
  let height = 0;
  const frameJob = (frames: DecodedVideo['frames'], op: 'frames' | 'frame'): PoolJob => ({
    op,
    bytes: packFrames(frames.map((f) => f.image.data)),
    frames: { width, height, times: frames.map((f) => f.timeSeconds) },
    owned: true,
  });
  try {
    const t0 = performance.now();
    // Twice as many chunks as workers for a full-length clip, so a worker busy with a photo does not hold up
    // half the clip; chunks start while ffmpeg is still decoding the rest.
    const batch = Math.max(1, Math.ceil((video.fps * video.maxSeconds) / (p.size * 2)));
    const clip = await decodeVideo(bytes, video, {
      batch,
      onFrames: (frames) => {
        ({ width, height } = frames[0]!.image);
        // The first chunk takes the queue place reserved above; the rest continue the same request.
        const first = scanning.length === 0;
        scanning.push(p.runBatch([frameJob(frames, 'frames')], { reservation, continuation: !first }));
      },
    });
    const decodeMs = performance.now() - t0;
    const scans = (await Promise.all(scanning)).flat().flatMap((r) => {
      if (r.status === 'rejected') throw r.reason;
      return r.value as FrameScan[];
    });
    const chosen = chooseBestFrames(scans);
    const settled = await p.runBatch(
      chosen.map((i) => frameJob([clip.frames[i]!], 'frame')),
      { reservation, continuation: true },
    );
    const best: FaceObservation[] = [];
    const bestTimes: number[] = [];
    settled.forEach((r, i) => {
      if (r.status === 'fulfilled') {
        best.push(r.value as FaceObservation);
        bestTimes.push(clip.frames[chosen[i]!]!.timeSeconds);
      } else if (!(r.reason instanceof VisionInputError)) throw r.reason;
    });
    if (!best.length) throw noClearFace();
    return {
      durationSeconds: clip.durationSeconds,
      frames: scans.map((s) => s.frame),
      best,
      bestTimes,
      decodeMs,
    };
  } catch (error) {
    // A clip refused (too long, unreadable) after some chunks were queued: drop those not started yet.
    p.cancel(reservation);
    void Promise.allSettled(scanning);
    throw error;
  } finally {
    reservation.release();
  }
}

/** Copies frames into one fresh ArrayBuffer that can be transferred to a worker. */
function packFrames(frames: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(frames.reduce((n, f) => n + f.byteLength, 0));
  let offset = 0;
  for (const f of frames) {
    out.set(f, offset);
    offset += f.byteLength;
  }
  return out;
}
