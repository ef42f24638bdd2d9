import type { SerialisedError } from './errors';
import type { FaceObservation, FrameScan, VideoObservation } from './types';

/**
 * - photo: an encoded image → FaceObservation from every model.
 * - descriptor: an encoded image → FaceObservation from the detector, mesh and faceres only (face matching; the
 *   passive antispoof/liveness models are skipped and read NaN).
 * - video: an encoded clip decoded and analysed in one worker (kept for callers that want a single job).
 * - frames: raw RGB frames of one video (`frames` meta) → the landmark pass per frame (FrameScan[]).
 * - frame: one raw RGB frame (`frames` meta with one time) → FaceObservation from every model, the descriptor
 *   included (a video's best frames: age, identity across the clip and the passive cues).
 */
export type WorkerOp = 'photo' | 'descriptor' | 'video' | 'frames' | 'frame';

export interface FramesMeta {
  width: number;
  height: number;
  /** Seconds from the start of the clip, one per frame packed in `bytes`. */
  times: number[];
}

export interface WorkerRequest {
  id: number;
  op: WorkerOp;
  /** Transferred, not copied. */
  bytes: ArrayBuffer;
  frames?: FramesMeta;
}

export type WorkerValue = FaceObservation | (VideoObservation & { decodeMs: number }) | FrameScan[];

export type WorkerResponse =
  | { type: 'ready'; backend: string; tensors: number }
  | { type: 'failed'; error: SerialisedError }
  | { type: 'result'; id: number; ok: true; value: WorkerValue }
  | { type: 'result'; id: number; ok: false; error: SerialisedError };
