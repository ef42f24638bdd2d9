import type { SerialisedError } from './errors';
import type { FaceObservation, VideoObservation } from './types';

export type WorkerOp = 'photo' | 'video';

export interface WorkerRequest {
  id: number;
  op: WorkerOp;
  /** Transferred, not copied. */
  bytes: ArrayBuffer;
}

export type WorkerValue = FaceObservation | (VideoObservation & { decodeMs: number });

export type WorkerResponse =
  | { type: 'ready'; backend: string; tensors: number }
  | { type: 'failed'; error: SerialisedError }
  | { type: 'result'; id: number; ok: true; value: WorkerValue }
  | { type: 'result'; id: number; ok: false; error: SerialisedError };
