import type Router from '@koa/router';
import { adminIdParams, adminRevokeTokenBody, adminTokenListQuery } from '@attestly/contracts';
import { validate } from '../../../middleware/validate';
import { actor, input } from '../common';
import type { AdminTokenService } from './service';

/** spec 02 §7 tokens and OAuth authorizations. */
export function mountTokenRoutes(router: Router, service: AdminTokenService): void {
  router.get('/tokens', validate({ query: adminTokenListQuery }), async (ctx) => {
    ctx.body = await service.listTokens(input(ctx, 'query', adminTokenListQuery));
  });

  router.post(
    '/tokens/:id/revoke',
    validate({ params: adminIdParams.token, body: adminRevokeTokenBody }),
    async (ctx) => {
      ctx.body = await service.revokeToken(
        input(ctx, 'params', adminIdParams.token).id,
        input(ctx, 'body', adminRevokeTokenBody),
        actor(ctx),
      );
    },
  );

  router.get('/oauth-authorizations', validate({ query: adminTokenListQuery }), async (ctx) => {
    ctx.body = await service.listAuthorizations(input(ctx, 'query', adminTokenListQuery));
  });

  router.post(
    '/oauth-authorizations/:id/revoke',
    validate({ params: adminIdParams.authorization, body: adminRevokeTokenBody }),
    async (ctx) => {
      ctx.body = await service.revokeAuthorization(
        input(ctx, 'params', adminIdParams.authorization).id,
        input(ctx, 'body', adminRevokeTokenBody),
        actor(ctx),
      );
    },
  );
}
