import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';

const INBOUND_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives each request an id (the caller's `X-Request-Id` when it is well-formed, otherwise a new UUID), echoes it
 * back, binds a child logger to it and writes one access-log line when the response is done.
 */
export function requestContext(logger: Logger): Middleware {
  return async (ctx, next) => {
    const inbound = ctx.get('X-Request-Id');
    const requestId = INBOUND_ID.test(inbound) ? inbound : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const log = logger.child({ request_id: requestId });
    ctx.state.logger = log;
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        {
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
