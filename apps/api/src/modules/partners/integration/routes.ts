import type Router from '@koa/router';
import { integrationTestBody, integrationTestResultSchema, siteIdParams } from '@attestly/contracts';
import { rateLimit } from '../../../middleware/rate-limit';
import { ok } from '../../../middleware/describe';
import { createRouter, routes } from '../../../middleware/route';
import type { Middleware } from 'koa';
import type { Deps } from '../../../core/deps';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { SiteService } from '../sites/service';
import { partnerId } from '../accounts/routes';
import { createIntegrationTest } from './service';

/** What these routes take from the app (services.ts builds it and passes it in). */
export type PartnerIntegrationRoutesServices = Pick<Deps, 'config'> & {
  sites: SiteService;
  limiter: RateLimiter;
  requireActivePartner: Middleware;
};

/** POST /partners/sites/{id}/integration-test: the real integration test of /partner/integration. */
export function partnerIntegrationRoutes(services: PartnerIntegrationRoutesServices): Router {
  const { requireActivePartner, limiter } = services;
  const integration = createIntegrationTest(services, services);
  const router = createRouter();
  routes(router, { tag: 'Sites' }).post('/partners/sites/:id/integration-test', {
    summary: 'Test a site’s integration',
    description:
      'Runs real checks of an OpenID Connect sign-in on this server for the site, each timed: the site is active, its redirect URIs and scopes, client authentication, and an authorization request with PKCE (S256).',
    responses: {
      200: ok('Each check and the overall result', integrationTestResultSchema),
      404: ok('Not one of your sites'),
    },
    guards: [
      requireActivePartner,
      rateLimit(
        limiter,
        { name: 'integration-test:partner', limit: 30, windowMs: 60_000 },
        partnerId,
        'Too many integration tests. Please wait a minute and try again.',
      ),
    ],
    input: { params: siteIdParams, body: integrationTestBody },
    handler: ({ params, body, ctx }) => {
      const socket = ctx.req.socket;
      return integration.run(partnerId(ctx), params.id, {
        redirectUri: body.redirect_uri,
        server: {
          host: socket.localAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
          port: socket.localPort ?? 0,
        },
      });
    },
  });
  return router;
}
