import type Router from '@koa/router';
import { partnerAuditListSchema, partnerAuditQuery, partnerStatsSchema } from '@attestly/contracts';
import { ok } from '../../../middleware/describe';
import { createRouter, routes } from '../../../middleware/route';
import type { Middleware } from 'koa';
import type { PartnerStatsService } from './service';
import { sandboxOnly } from '../api-keys/middleware';
import { partnerId } from '../accounts/routes';

/** What these routes take from the app (services.ts builds it and passes it in). */
export type PartnerStatsRoutesServices = {
  partnerStats: PartnerStatsService;
  requirePartnerOrApiKey: Middleware;
};

/** GET /partners/stats and GET /partners/audit-logs (spec 01 §7): the portal's session or the partner's API key. */
export function partnerStatsRoutes(services: PartnerStatsRoutesServices): Router {
  const { partnerStats, requirePartnerOrApiKey } = services;
  const router = createRouter();
  const route = routes(router, { tag: 'Partner insights', guards: [requirePartnerOrApiKey] });

  route.get('/partners/stats', {
    summary: 'Your verification statistics',
    description:
      'Totals, success rate, monthly usage, the 30-day trend, top countries, recent verifications and token counts; sandbox verifications are counted apart. A sandbox API key gets the same figures about your sandbox sites only (their verifications, tokens and revocations; no response time).',
    limited: true,
    responses: { 200: ok('Statistics', partnerStatsSchema) },
    handler: ({ ctx }) => partnerStats.forPartner(partnerId(ctx), { sandboxOnly: sandboxOnly(ctx) }),
  });

  route.get('/partners/audit-logs', {
    summary: 'Your audit log',
    description:
      'Newest first, with search and filters. Users appear by the pairwise subject your sites know them by. A sandbox API key sees only the entries about your sandbox sites.',
    limited: true,
    responses: { 200: ok('Audit entries', partnerAuditListSchema) },
    input: { query: partnerAuditQuery },
    handler: ({ query, ctx }) =>
      partnerStats.auditLogs(partnerId(ctx), query, { sandboxOnly: sandboxOnly(ctx) }),
  });

  return router;
}
