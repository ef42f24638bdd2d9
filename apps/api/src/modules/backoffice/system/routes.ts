import type Router from '@koa/router';
import { adminAlertListSchema, adminSystemHealthSchema, adminSystemStatsSchema } from '@attestly/contracts';
import { describeRoute, ok } from '../../../middleware/describe';
import type { AdminSystemService } from './service';

/** spec 02 §7: GET /system/stats, /system/health, /system/alerts. */
export function mountSystemRoutes(router: Router, service: AdminSystemService): void {
  router.get(
    '/system/stats',
    describeRoute({
      tag: 'Admin: system',
      summary: 'System figures',
      responses: { 200: ok('Users, partners, tokens and verifications', adminSystemStatsSchema) },
    }),
    async (ctx) => {
      ctx.body = await service.stats();
    },
  );
  router.get(
    '/system/health',
    describeRoute({
      tag: 'Admin: system',
      summary: 'Health of the components',
      responses: { 200: ok('Database, services and recent activity', adminSystemHealthSchema) },
    }),
    async (ctx) => {
      ctx.body = await service.health();
    },
  );
  router.get(
    '/system/alerts',
    describeRoute({
      tag: 'Admin: system',
      summary: 'Current alerts',
      responses: { 200: ok('Alerts', adminAlertListSchema) },
    }),
    async (ctx) => {
      ctx.body = await service.alerts();
    },
  );
}
