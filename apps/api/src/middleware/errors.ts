import type { Middleware } from 'koa';
import type { ErrorEnvelope } from '@attestly/contracts';
import { AppError } from '../errors';
import { underApi } from '../lib/api-path';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  message?: string;
}

/** Errors thrown by body parsers and Koa itself, mapped to the envelope's codes (DESIGN.md §3). */
function fromHttpError(error: HttpLikeError): AppError | null {
  const status = error.status ?? error.statusCode;
  if (!status || status >= 500) return null;
  if (status === 413) return new AppError(413, 'request.too_large', 'Request body is too large');
  if (status === 415) return new AppError(415, 'request.unsupported_media_type', 'Unsupported content type');
  if (
    status === 400 &&
    (error.type === 'entity.parse.failed' || /JSON|Unexpected token/i.test(error.message ?? ''))
  ) {
    return new AppError(400, 'request.malformed_json', 'Request body is not valid JSON');
  }
  if (status === 400)
    return new AppError(
      400,
      'request.malformed',
      error.expose ? (error.message ?? 'Bad request') : 'Bad request',
    );
  return new AppError(
    status,
    'request.error',
    error.expose && error.message ? error.message : 'Request failed',
  );
}

/**
 * Renders every failure under /api as the error envelope. Unknown errors become 500 `internal_error` without a
 * stack or message leaking; they are logged with the request id so an operator can find them.
 */
export function errorEnvelope(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // Paths under /api that no router matched (e.g. /api/v2/…) get the envelope too, not Koa's text 404.
      if (ctx.status === 404 && ctx.body == null && underApi(ctx.path)) {
        throw new AppError(404, 'not_found', 'No such API endpoint');
      }
    } catch (caught) {
      const error = caught instanceof AppError ? caught : (fromHttpError(caught as HttpLikeError) ?? null);
      const requestId = ctx.state.requestId as string | undefined;
      if (!error) {
        ctx.state.logger?.error({ err: caught }, 'unhandled error');
        ctx.status = 500;
        ctx.body = {
          detail: 'Internal server error',
          code: 'internal_error',
          request_id: requestId,
        } satisfies ErrorEnvelope;
        return;
      }
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
      const body: ErrorEnvelope = { detail: error.detail, code: error.code, request_id: requestId };
      if (error.errors?.length) body.errors = error.errors;
      ctx.body = body;
    }
  };
}
