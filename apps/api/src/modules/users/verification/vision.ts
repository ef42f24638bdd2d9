import type { VisionEngine } from '@attestly/models';
import { AppError } from '../../../errors';
import type { ReadinessCheck } from '../../operators/health/routes';

/**
 * The seam between the API and @attestly/models. Only types are imported here: the engine itself is created by
 * the server entry (server.ts), so the API modules and their tests do not load TensorFlow unless they use it.
 * Errors are recognised by name because they may cross a worker boundary (models/src/errors.ts revives them).
 */

const STARTING_RETRY_SECONDS = 5;

/** `/readyz` component: not ready until every worker has loaded its models (DESIGN.md §2). */
export function visionReadiness(engine: VisionEngine): ReadinessCheck {
  let startError: string | null = null;
  engine.ready.catch((error: unknown) => {
    startError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  });
  return {
    name: 'vision',
    async check() {
      const { backend, ready, workers, queued } = engine.status();
      return {
        ok: ready && workers > 0,
        backend,
        workers,
        queued,
        ...(startError ? { error: startError } : {}),
      };
    },
  };
}

/** The engine when it can take work now; otherwise a 503 the screen can show (with Retry-After while loading). */
export function requireEngine(engine: VisionEngine | null | undefined, what: string): VisionEngine {
  if (!engine) {
    throw new AppError(
      503,
      'verification.unavailable',
      `${what} is not available on this server. Please try another method.`,
    );
  }
  const status = engine.status();
  if (!status.ready || status.workers === 0) {
    throw new AppError(
      503,
      'verification.starting',
      'The verification service is starting. Please try again in a few seconds.',
      undefined,
      { 'Retry-After': String(STARTING_RETRY_SECONDS) },
    );
  }
  return engine;
}

interface NamedError {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  retryAfterSeconds?: unknown;
}

/**
 * Maps the engine's typed failures onto the error envelope: busy → 503 + Retry-After; a problem with the
 * person's file → 422 whose `detail` says what to do next; a stuck analysis → 503 to retry. Anything else is
 * rethrown (→ 500, logged, no detail leaked).
 */
export function toAppError(error: unknown): unknown {
  const e = (error ?? {}) as NamedError;
  if (e.name === 'VisionBusyError') {
    const seconds = typeof e.retryAfterSeconds === 'number' ? e.retryAfterSeconds : STARTING_RETRY_SECONDS;
    return new AppError(503, 'verification.busy', String(e.message), undefined, {
      'Retry-After': String(Math.max(1, Math.ceil(seconds))),
    });
  }
  if (e.name === 'VisionInputError' && typeof e.code === 'string') {
    if (e.code === 'analysis_timeout') {
      return new AppError(503, 'verification.timeout', String(e.message), undefined, { 'Retry-After': '5' });
    }
    return new AppError(422, `verification.${e.code}`, String(e.message));
  }
  return error;
}

export async function runAnalysis<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toAppError(error);
  }
}
