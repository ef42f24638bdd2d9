/**
 * Worker-thread entry: one Human instance and one TensorFlow.js backend per thread, models loaded before
 * `ready` is posted. Bundled by the API as `vision-worker.js` beside the server bundle.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serialiseError } from './errors';
import { observeSubject } from './face-observer';
import { createHumanRuntime, type BackendPreference } from './human-runtime';
import { decodeImage } from './image-decode';
import { observeVideo } from './video-observer';
import type { VideoDecodeOptions } from './video-decode';
import type { WorkerRequest, WorkerResponse } from './worker-protocol';

interface VisionWorkerData {
  backend: BackendPreference;
  video: VideoDecodeOptions;
}

const port = parentPort;
if (!port) throw new Error('vision-worker must run in a worker thread');
const config = workerData as VisionWorkerData;

const post = (message: WorkerResponse) => port.postMessage(message);

try {
  const runtime = await createHumanRuntime(config.backend);
  port.on('message', async (request: WorkerRequest) => {
    try {
      const bytes = new Uint8Array(request.bytes);
      if (request.op === 'photo') {
        const image = await decodeImage(bytes);
        post({ type: 'result', id: request.id, ok: true, value: await observeSubject(runtime.human, image) });
      } else {
        const { decodeMs, ...video } = await observeVideo(runtime.human, bytes, config.video);
        post({ type: 'result', id: request.id, ok: true, value: { ...video, decodeMs } });
      }
    } catch (error) {
      post({ type: 'result', id: request.id, ok: false, error: serialiseError(error) });
    }
  });
  post({ type: 'ready', backend: runtime.backend, tensors: runtime.human.tf.memory().numTensors });
} catch (error) {
  post({ type: 'failed', error: serialiseError(error) });
}
