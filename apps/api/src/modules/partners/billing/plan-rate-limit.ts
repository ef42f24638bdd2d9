import type { Context, Middleware } from 'koa';
import type { Deps } from '../../../core/deps';
import { tooManyRequests } from '../../../errors';
import type { AuditService } from '../../shared/audit/service';
import type { RateLimiter } from '../../shared/rate-limit/service';
import { planOf } from './usage';

const PLAN_CACHE_MS = 10_000;

/**
 * The per-minute API rate limit of the partner's plan (contracts PLANS `rate_limit_per_minute`), counted in the
 * database like every other limit so that replicas share it. Mount after the middleware that identifies the
 * partner; `partnerOf` reads its id from the context (null: not a partner call, no limit). The plan is cached per
 * process for a few seconds: a plan change takes effect within that time.
 *
 * The first refused call of each window writes `api.rate_limit_exceeded` to the partner's audit log (spec 01 §3);
 * the counter is read back atomically, so exactly one call per window sees `limit + 1` and the log gets one entry,
 * not one per refused call.
 */
export function planRateLimit(
  { db, clock }: Pick<Deps, 'db' | 'clock'>,
  limiter: RateLimiter,
  partnerOf: (ctx: Context) => string | null,
  audit?: AuditService,
): Middleware {
  const plans = new Map<string, { plan: string; until: number }>();
  return async (ctx, next) => {
    const partnerId = partnerOf(ctx);
    if (!partnerId) return next();
    const now = clock.now().getTime();
    let cached = plans.get(partnerId);
    if (!cached || cached.until < now) {
      const [row] = await db.read<{ plan: string }>('SELECT plan FROM partners WHERE id = :id', {
        id: partnerId,
      });
      if (plans.size > 10_000) plans.clear();
      cached = { plan: row?.plan ?? '', until: now + PLAN_CACHE_MS };
      plans.set(partnerId, cached);
    }
    const plan = planOf(cached.plan);
    const state = await limiter.hit(
      { name: 'partner-api:plan', limit: plan.rate_limit_per_minute, windowMs: 60_000 },
      partnerId,
    );
    if (!state.allowed) {
      if (audit && state.count === plan.rate_limit_per_minute + 1) {
        const caller = ctx.state.partner as { keyId?: string | null } | undefined;
        await audit.recordSafely({
          event: 'api.rate_limit_exceeded',
          severity: 'warning',
          partnerId,
          ip: ctx.ip,
          userAgent: ctx.get('User-Agent') || null,
          details: {
            endpoint: `${ctx.method} ${ctx.path}`,
            plan: plan.id,
            limit_per_minute: plan.rate_limit_per_minute,
            api_key_id: caller?.keyId ?? null,
          },
        });
      }
      throw tooManyRequests(
        `API rate limit of the ${plan.name} plan reached (${plan.rate_limit_per_minute} requests per minute). Please slow down or upgrade your plan.`,
        state.retryAfterSeconds,
      );
    }
    await next();
  };
}
