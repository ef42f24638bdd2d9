import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type * as v from 'valibot';
import { apiKeyCreatedSchema, apiKeyIdParams, apiKeyListSchema, createApiKeyBody } from '@attestly/contracts';
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../../middleware/describe';
import type { ApiKeyService } from './service';
import { partnerId } from '../accounts/routes';
import { origin } from '../../../lib/request-origin';
import { presentApiKey } from './service';

const keyId = (ctx: Context) => (ctx.state.input.params as v.InferOutput<typeof apiKeyIdParams>).id;

/** What these routes take from the app (services.ts builds it and passes it in). */
export type ApiKeyRoutesServices = { apiKeys: ApiKeyService; requireActivePartner: Middleware };

/**
 * GET/POST /partners/api-keys, regenerate and delete. Managed from the portal only (a partner session): an API key
 * cannot mint or revoke keys, so a leaked key cannot entrench itself.
 */
export function apiKeyRoutes(services: ApiKeyRoutesServices): Router {
  const { apiKeys, requireActivePartner } = services;
  const router = new Router();

  router.get(
    '/partners/api-keys',
    describeRoute({
      tag: 'API keys',
      summary: 'List your API keys',
      description: 'Active keys with their visible prefix; never the keys themselves.',
      responses: { 200: ok('API keys', apiKeyListSchema) },
    }),
    requireActivePartner,
    async (ctx) => {
      const keys = await apiKeys.list(partnerId(ctx));
      ctx.body = { api_keys: keys.map(presentApiKey), total_count: keys.length };
    },
  );

  router.post(
    '/partners/api-keys',
    describeRoute({
      tag: 'API keys',
      summary: 'Create an API key',
      description: 'The key is in this answer only; at most 10 active keys.',
      responses: { 201: ok('The new key', apiKeyCreatedSchema) },
    }),
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
    describeRoute({
      tag: 'API keys',
      summary: 'Replace an API key',
      description: 'The old key stops working at once; the new one is in this answer only.',
      responses: { 200: ok('The new key', apiKeyCreatedSchema), 404: ok('Not one of your keys') },
    }),
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
    describeRoute({
      tag: 'API keys',
      summary: 'Revoke an API key',
      responses: { 204: ok('Revoked'), 404: ok('Not one of your keys') },
    }),
    requireActivePartner,
    validate({ params: apiKeyIdParams }),
    async (ctx) => {
      await apiKeys.revoke({ partnerId: partnerId(ctx), keyId: keyId(ctx) }, { origin: origin(ctx) });
      ctx.status = 204;
    },
  );

  return router;
}
