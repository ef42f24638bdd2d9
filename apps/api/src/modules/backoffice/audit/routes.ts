import type Router from '@koa/router';
import { adminAuditListQuery, adminAuditLogListSchema } from '@attestly/contracts';
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../../middleware/describe';
import { input } from '../common';
import type { AdminAuditService } from './service';

/** spec 02 §7: GET /audit-logs with every filter. */
export function mountAuditRoutes(router: Router, service: AdminAuditService): void {
  router.get(
    '/audit-logs',
    describeRoute({
      tag: 'Admin: audit',
      summary: 'Read the audit log',
      description:
        'Newest first, with every filter; each entry carries its hash and the previous one (a chain).',
      responses: { 200: ok('Audit entries', adminAuditLogListSchema) },
    }),
    validate({ query: adminAuditListQuery }),
    async (ctx) => {
      ctx.body = await service.list(input(ctx, 'query', adminAuditListQuery));
    },
  );
}
