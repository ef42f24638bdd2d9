import Router from '@koa/router';
import type { AppServices } from '../../services';
import { buildOpenApiDocument } from './openapi';

/** Public, read-only: the API description and the little configuration the public site needs. */
export function docsRoutes({ config }: AppServices): Router {
  const router = new Router();
  let document: ReturnType<typeof buildOpenApiDocument> | null = null;
  router.get('/openapi.json', (ctx) => {
    // Built on first request, when every router is mounted, then kept: routes do not change while running.
    document ??= buildOpenApiDocument(ctx.app, { publicUrl: config.publicUrl, version: '0.1.0' });
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = document;
  });
  router.get('/site-config', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = { support_email: config.supportEmail };
  });
  return router;
}
