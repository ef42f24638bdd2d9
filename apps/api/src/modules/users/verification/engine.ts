import type { Logger } from 'pino';
import { ageHeads, createVisionEngine, type VisionEngine } from '@attestly/models';
import type { Config } from '../../../config';

/**
 * Starts the on-box vision engine for the server: the worker pool begins loading its models at once and the
 * server listens meanwhile; /readyz stays 503 until every worker is ready. A failure to load (e.g. a model file
 * that differs from models/manifest.json) is logged and leaves facial and document verification answering 503.
 * Only the server entry imports this, so tests and tools that never analyse media never load TensorFlow.
 */
export function startVisionEngine(config: Config, logger: Logger): VisionEngine {
  const started = Date.now();
  const engine = createVisionEngine({
    workers: config.vision.workers ?? undefined,
    decision: { mode: config.vision.decisionMode, buffer: config.vision.ageBuffer },
    weights: ageHeads[config.vision.ageModel],
  });
  engine.ready.then(
    () => logger.info({ ...engine.status(), ms: Date.now() - started }, 'vision models loaded'),
    (error: unknown) =>
      logger.error(
        { err: error },
        'vision models failed to load: facial and document verification are unavailable',
      ),
  );
  return engine;
}
