import type Router from '@koa/router';
import { siteConfigSchema } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { ok } from '../../../middleware/describe';
import { createRouter, routes } from '../../../middleware/route';
import { buildOpenApiDocument } from './openapi';

/** What these routes take from the app (services.ts builds it and passes it in). */
export type DocsRoutesServices = Pick<Deps, 'config'>;

/** Public, read-only: the API description and the little configuration the public site needs. */
export function docsRoutes({ config }: DocsRoutesServices): Router {
  const router = createRouter();
  let document: ReturnType<typeof buildOpenApiDocument> | null = null;
  const route = routes(router, { tag: 'Site' });
  route.get('/openapi.json', {
    summary: 'This document',
    responses: { 200: { description: 'OpenAPI 3.1 document', contentType: 'application/json' } },
    handler: ({ ctx }) => {
      // Built on first request, when every router is mounted, then kept: routes do not change while running.
      document ??= buildOpenApiDocument(ctx.app, { publicUrl: config.publicUrl, version: '0.1.0' });
      ctx.set('Cache-Control', 'public, max-age=300');
      return document;
    },
  });
  route.get('/site-config', {
    summary: 'Public site configuration',
    responses: { 200: ok('Configuration', siteConfigSchema) },
    headers: { 'Cache-Control': 'public, max-age=300' },
    handler: () => {
      const card = config.cardCheck;
      return {
        support_email: config.supportEmail,
        capabilities: {
          card_check: card ? { publishable_key: card.publishableKey, stripe_js_url: card.stripeJsUrl } : null,
        },
      };
    },
  });
  return router;
}
