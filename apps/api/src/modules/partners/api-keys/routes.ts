import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { apiKeyCreatedSchema, apiKeyIdParams, apiKeyListSchema, createApiKeyBody } from '@attestly/contracts';
import { ok } from '../../../middleware/describe';
import { createRouter, routes } from '../../../middleware/route';
import type { ApiKeyService } from './service';
import { partnerId } from '../accounts/routes';
import { origin } from '../../../lib/request-origin';
import { presentApiKey, presentNewApiKey } from './service';

/** What these routes take from the app (services.ts builds it and passes it in). */
export type ApiKeyRoutesServices = { apiKeys: ApiKeyService; requireActivePartner: Middleware };

/**
 * GET/POST /partners/api-keys, regenerate and delete. Managed from the portal only (a partner session): an API key
 * cannot mint or revoke keys, so a leaked key cannot entrench itself.
 */
export function apiKeyRoutes(services: ApiKeyRoutesServices): Router {
  const { apiKeys, requireActivePartner } = services;
  const router = createRouter();
  const route = routes(router, { tag: 'API keys', guards: [requireActivePartner] });

  route.get('/partners/api-keys', {
    summary: 'List your API keys',
    description: 'Active keys with their visible prefix; never the keys themselves.',
    responses: { 200: ok('API keys', apiKeyListSchema) },
    handler: async ({ ctx }) => {
      const keys = await apiKeys.list(partnerId(ctx));
      return { api_keys: keys.map(presentApiKey), total_count: keys.length };
    },
  });

  route.post('/partners/api-keys', {
    summary: 'Create an API key',
    description: 'The key is in this answer only; at most 10 active keys.',
    responses: { 201: ok('The new key', apiKeyCreatedSchema) },
    input: { body: createApiKeyBody },
    status: 201,
    handler: async ({ body, ctx }) =>
      presentNewApiKey(
        await apiKeys.create(
          { partnerId: partnerId(ctx), environment: body.environment },
          { origin: origin(ctx) },
        ),
      ),
  });

  route.post('/partners/api-keys/:id/regenerate', {
    summary: 'Replace an API key',
    description: 'The old key stops working at once; the new one is in this answer only.',
    responses: { 200: ok('The new key', apiKeyCreatedSchema), 404: ok('Not one of your keys') },
    input: { params: apiKeyIdParams },
    handler: async ({ params, ctx }) =>
      presentNewApiKey(
        await apiKeys.regenerate({ partnerId: partnerId(ctx), keyId: params.id }, { origin: origin(ctx) }),
      ),
  });

  route.delete('/partners/api-keys/:id', {
    summary: 'Revoke an API key',
    responses: { 204: ok('Revoked'), 404: ok('Not one of your keys') },
    input: { params: apiKeyIdParams },
    status: 204,
    handler: async ({ params, ctx }) => {
      await apiKeys.revoke({ partnerId: partnerId(ctx), keyId: params.id }, { origin: origin(ctx) });
    },
  });

  return router;
}
