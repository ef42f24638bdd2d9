import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';

const INBOUND_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives each request an id (the caller's `X-Request-Id` when it is well-formed, otherwise a new UUID), echoes it
 * back, offers a child logger bound to it (`ctx.state.logger`, made on first use: most requests log only the
 * access line) and writes one access-log line when the response is done.
 */
export function requestContext(logger: Logger): Middleware {
  // The access line's fields (id, method, path, route, status, time) are never among the logger's redacted paths,
  // so it is written by a child without redaction: the same line, without a redaction pass on every request.
  const accessLog = logger.child({}, { redact: { paths: [] } });
  return async (ctx, next) => {
    const inbound = ctx.get('X-Request-Id');
    const requestId = INBOUND_ID.test(inbound) ? inbound : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    let child: Logger | undefined;
    Object.defineProperty(ctx.state, 'logger', {
      get: () => (child ??= logger.child({ request_id: requestId })),
      enumerable: true,
      configurable: true,
    });
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      accessLog.info(
        {
          request_id: requestId,
          method: ctx.method,
          path: ctx.path,
          route: ctx.state.routeTemplate,
          status: ctx.status,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    }
  };
}
