import sharp from 'sharp';
import { createVisionEngine, VisionInputError } from '@attestly/models';

/**
 * Loads the vision models in one worker and times one face analysis of a plain grey image. The expected answer is
 * "no face" (VisionInputError): what is measured is that the backend runs the detector end to end.
 */
export async function timedTestInference(): Promise<{
  backend: string;
  loadMs: number;
  inferenceMs: number;
}> {
  const started = performance.now();
  const engine = createVisionEngine({ workers: 1 });
  try {
    await engine.ready;
    const loaded = performance.now();
    const image = await sharp({ create: { width: 320, height: 320, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    try {
      await engine.observePhoto(image);
    } catch (error) {
      if (!(error instanceof VisionInputError)) throw error;
    }
    return {
      backend: engine.status().backend,
      loadMs: Math.round(loaded - started),
      inferenceMs: Math.round(performance.now() - loaded),
    };
  } finally {
    await engine.close();
  }
}
