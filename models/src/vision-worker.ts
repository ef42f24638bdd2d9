/**
 * Worker-thread entry: one Human instance and one TensorFlow.js backend per thread, models loaded before
 * `ready` is posted. Bundled by the API as `vision-worker.js` beside the server bundle.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AgeModelsRead } from './age-head';
import { serialiseError } from './errors';
import { observeSubject } from './face-observer';
import { createHumanRuntime, type BackendPreference } from './human-runtime';
import { decodeImage, type RgbImage } from './image-decode';
import { observeBestFrame, observeVideo, scanFrames } from './video-observer';
import type { VideoDecodeOptions } from './video-decode';
import type { FramesMeta, WorkerRequest, WorkerResponse, WorkerValue } from './worker-protocol';

interface VisionWorkerData {
  backend: BackendPreference;
  video: VideoDecodeOptions;
  /**
   * The networks the engine's age head reads (age-head.ts `ageModelsRead`); the engine always sets it. Absent, the
   * worker runs faceres alone, which the default head cannot decide from.
   */
  ageModels?: AgeModelsRead;
}

const port = parentPort;
if (!port) throw new Error('vision-worker must run in a worker thread');
const config = workerData as VisionWorkerData;

const post = (message: WorkerResponse) => port.postMessage(message);

/** Views over the packed RGB frames of a `frames`/`frame` request (no copy). */
function unpackFrames(buffer: ArrayBuffer, meta: FramesMeta): { timeSeconds: number; image: RgbImage }[] {
  const size = meta.width * meta.height * 3;
  if (buffer.byteLength !== size * meta.times.length) throw new Error('frame buffer does not match its meta');
  return meta.times.map((timeSeconds, i) => ({
    timeSeconds,
    image: { data: new Uint8Array(buffer, i * size, size), width: meta.width, height: meta.height },
  }));
}

try {
  const runtime = await createHumanRuntime(config.backend, config.ageModels);
  const { human } = runtime;
  const handle = async (request: WorkerRequest): Promise<WorkerValue> => {
    switch (request.op) {
      case 'photo':
        return observeSubject(runtime, await decodeImage(new Uint8Array(request.bytes)));
      case 'descriptor':
        return observeSubject(runtime, await decodeImage(new Uint8Array(request.bytes)), 'describe', {
          age: false,
          identity: true,
        });
      case 'frames':
        return scanFrames(human, unpackFrames(request.bytes, request.frames!));
      case 'frame':
        return observeBestFrame(runtime, unpackFrames(request.bytes, request.frames!)[0]!.image);
      case 'video':
        return observeVideo(runtime, new Uint8Array(request.bytes), config.video);
    }
  };
  port.on('message', async (request: WorkerRequest) => {
    try {
      post({ type: 'result', id: request.id, ok: true, value: await handle(request) });
    } catch (error) {
      post({ type: 'result', id: request.id, ok: false, error: serialiseError(error) });
    }
  });
  post({ type: 'ready', backend: runtime.backend, tensors: human.tf.memory().numTensors });
} catch (error) {
  post({ type: 'failed', error: serialiseError(error) });
}
