import type { Context, Middleware } from 'koa';
import { tooManyRequests } from '../errors';

/** Counts hits per rule and subject (modules/shared/rate-limit/service.ts implements it in the database). */
export interface RateLimitCounter<Rule> {
  hit(rule: Rule, key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
}

/**
 * Counts each request against `rule` for the subject `key(ctx)` returns; over the limit → 429 + Retry-After.
 * The middleware is marked `rateLimited`, so the OpenAPI document lists 429 for every route that mounts it
 * (modules/public/docs) without the route having to say so again.
 */
export function rateLimit<Rule>(
  limiter: RateLimitCounter<Rule>,
  rule: Rule,
  key: (ctx: Context) => string,
  message = 'Too many requests. Please wait and try again.',
): Middleware & { rateLimited: true } {
  const middleware: Middleware = async (ctx, next) => {
    const state = await limiter.hit(rule, key(ctx));
    if (!state.allowed) throw tooManyRequests(message, state.retryAfterSeconds);
    await next();
  };
  return Object.assign(middleware, { rateLimited: true as const });
}
