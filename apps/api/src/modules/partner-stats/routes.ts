import Router from '@koa/router';
import type * as v from 'valibot';
import { partnerAuditQuery } from '@attestly/contracts';
import { validate } from '../../middleware/validate';
import type { AppServices } from '../../services';
import { partnerId } from '../partners/routes';

/** GET /partners/stats and GET /partners/audit-logs (spec 01 §7): the portal's session or the partner's API key. */
export function partnerStatsRoutes(services: AppServices): Router {
  const { partnerStats, requirePartnerOrApiKey } = services;
  const router = new Router();

  router.get('/partners/stats', requirePartnerOrApiKey, async (ctx) => {
    ctx.body = await partnerStats.forPartner(partnerId(ctx));
  });

  router.get(
    '/partners/audit-logs',
    requirePartnerOrApiKey,
    validate({ query: partnerAuditQuery }),
    async (ctx) => {
      const query = ctx.state.input.query as v.InferOutput<typeof partnerAuditQuery>;
      ctx.body = await partnerStats.auditLogs(partnerId(ctx), query);
    },
  );

  return router;
}
