import type { Middleware } from 'koa';
import type { Deps } from '../../../core/deps';
import { underApi } from '../../../lib/api-path';

/**
 * Requests this replica answered, per minute for the last hour (dashboard "last hour of API calls"). Counted in
 * memory because it is a per-replica figure like the Prometheus counters; 60 buckets, no growth.
 */
export function createRequestCounter(clock: Deps['clock']) {
  const buckets = new Array<number>(60).fill(0);
  const minuteOf = new Array<number>(60).fill(-1);
  const middleware: Middleware = async (ctx, next) => {
    if (underApi(ctx.path)) {
      const minute = Math.floor(clock.now().getTime() / 60_000);
      const slot = minute % 60;
      if (minuteOf[slot] !== minute) {
        minuteOf[slot] = minute;
        buckets[slot] = 0;
      }
      buckets[slot] = (buckets[slot] ?? 0) + 1;
    }
    await next();
  };
  return {
    middleware,
    lastHour(): number {
      const minute = Math.floor(clock.now().getTime() / 60_000);
      let total = 0;
      for (let slot = 0; slot < 60; slot++) {
        if (minute - (minuteOf[slot] ?? -1) < 60) total += buckets[slot] ?? 0;
      }
      return total;
    },
  };
}
export type RequestCounter = ReturnType<typeof createRequestCounter>;
