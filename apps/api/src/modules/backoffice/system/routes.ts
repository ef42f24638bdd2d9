import type Router from '@koa/router';
import { adminAlertListSchema, adminSystemHealthSchema, adminSystemStatsSchema } from '@attestly/contracts';
import { ok } from '../../../middleware/describe';
import { routes } from '../../../middleware/route';
import type { AdminSystemService } from './service';

/** spec 02 §7: GET /system/stats, /system/health, /system/alerts. */
export function mountSystemRoutes(router: Router, service: AdminSystemService): void {
  const route = routes(router, { tag: 'Admin: system' });
  route.get('/system/stats', {
    summary: 'System figures',
    responses: { 200: ok('Users, partners, tokens and verifications', adminSystemStatsSchema) },
    handler: () => service.stats(),
  });
  route.get('/system/health', {
    summary: 'Health of the components',
    responses: { 200: ok('Database, services and recent activity', adminSystemHealthSchema) },
    handler: () => service.health(),
  });
  route.get('/system/alerts', {
    summary: 'Current alerts',
    responses: { 200: ok('Alerts', adminAlertListSchema) },
    handler: () => service.alerts(),
  });
}
