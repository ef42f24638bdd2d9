import type { Context } from 'koa';

/** Where a request came from, for audit entries and sessions: the client address and its user agent. */
export const origin = (ctx: Context) => ({ ip: ctx.ip || null, userAgent: ctx.get('User-Agent') || null });
