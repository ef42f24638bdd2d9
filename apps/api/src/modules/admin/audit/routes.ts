import type Router from '@koa/router';
import { adminAuditListQuery } from '@attestly/contracts';
import { validate } from '../../../middleware/validate';
import { input } from '../common';
import type { AdminAuditService } from './service';

/** spec 02 §7: GET /audit-logs with every filter. */
export function mountAuditRoutes(router: Router, service: AdminAuditService): void {
  router.get('/audit-logs', validate({ query: adminAuditListQuery }), async (ctx) => {
    ctx.body = await service.list(input(ctx, 'query', adminAuditListQuery));
  });
}
