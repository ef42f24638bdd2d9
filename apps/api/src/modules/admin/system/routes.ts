import type Router from '@koa/router';
import type { AdminSystemService } from './service';

/** spec 02 §7: GET /system/stats, /system/health, /system/alerts. */
export function mountSystemRoutes(router: Router, service: AdminSystemService): void {
  router.get('/system/stats', async (ctx) => {
    ctx.body = await service.stats();
  });
  router.get('/system/health', async (ctx) => {
    ctx.body = await service.health();
  });
  router.get('/system/alerts', async (ctx) => {
    ctx.body = await service.alerts();
  });
}
