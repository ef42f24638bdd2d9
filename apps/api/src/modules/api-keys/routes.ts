import Router from '@koa/router';
import type { Context } from 'koa';
import type * as v from 'valibot';
import { apiKeyIdParams, createApiKeyBody } from '@attestly/contracts';
import { validate } from '../../middleware/validate';
import type { AppServices } from '../../services';
import { partnerId } from '../partners/routes';
import { origin } from '../users/routes';
import { presentApiKey } from './service';

const keyId = (ctx: Context) => (ctx.state.input.params as v.InferOutput<typeof apiKeyIdParams>).id;

/**
 * GET/POST /partners/api-keys, regenerate and delete. Managed from the portal only (a partner session): an API key
 * cannot mint or revoke keys, so a leaked key cannot entrench itself.
 */
export function apiKeyRoutes(services: AppServices): Router {
  const { apiKeys, requireActivePartner } = services;
  const router = new Router();

  router.get('/partners/api-keys', requireActivePartner, async (ctx) => {
    const keys = await apiKeys.list(partnerId(ctx));
    ctx.body = { api_keys: keys.map(presentApiKey), total_count: keys.length };
  });

  router.post(
    '/partners/api-keys',
    requireActivePartner,
    validate({ body: createApiKeyBody }),
    async (ctx) => {
      const { environment } = ctx.state.input.body as v.InferOutput<typeof createApiKeyBody>;
      const created = await apiKeys.create(
        { partnerId: partnerId(ctx), environment },
        { origin: origin(ctx) },
      );
      ctx.status = 201;
      ctx.body = { ...presentApiKey(created.key), api_key: created.api_key };
    },
  );

  router.post(
    '/partners/api-keys/:id/regenerate',
    requireActivePartner,
    validate({ params: apiKeyIdParams }),
    async (ctx) => {
      const created = await apiKeys.regenerate(
        { partnerId: partnerId(ctx), keyId: keyId(ctx) },
        { origin: origin(ctx) },
      );
      ctx.body = { ...presentApiKey(created.key), api_key: created.api_key };
    },
  );

  router.delete(
    '/partners/api-keys/:id',
    requireActivePartner,
    validate({ params: apiKeyIdParams }),
    async (ctx) => {
      await apiKeys.revoke({ partnerId: partnerId(ctx), keyId: keyId(ctx) }, { origin: origin(ctx) });
      ctx.status = 204;
    },
  );

  return router;
}
