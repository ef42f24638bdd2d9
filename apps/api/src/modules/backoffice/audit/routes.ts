import type Router from '@koa/router';
import { adminAuditListQuery, adminAuditLogListSchema } from '@attestly/contracts';
import { ok } from '../../../middleware/describe';
import { routes } from '../../../middleware/route';
import { listOn } from '../common';
import type { AdminAuditService } from './service';

/** spec 02 §7: GET /audit-logs with every filter. */
export function mountAuditRoutes(router: Router, service: AdminAuditService): void {
  routes(router, { tag: 'Admin: audit' }).get('/audit-logs', {
    summary: 'Read the audit log',
    description:
      'Newest first, with every filter; each entry carries its hash and the previous one (a chain).',
    responses: { 200: ok('Audit entries', adminAuditLogListSchema) },
    ...listOn(adminAuditListQuery, service.list),
  });
}
