import type Router from '@koa/router';
import {
  adminAuthorizationListSchema,
  adminAuthorizationSchema,
  adminIdParams,
  adminRevokeTokenBody,
  adminRevokedTokenSchema,
  adminTokenListQuery,
  adminTokenListSchema,
} from '@attestly/contracts';
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../../middleware/describe';
import { actor, input } from '../common';
import type { AdminTokenService } from './service';

/** spec 02 §7 tokens and OAuth authorizations. */
export function mountTokenRoutes(router: Router, service: AdminTokenService): void {
  router.get(
    '/tokens',
    describeRoute({
      tag: 'Admin: tokens',
      summary: 'List OAuth tokens',
      responses: { 200: ok('Access and refresh tokens', adminTokenListSchema) },
    }),
    validate({ query: adminTokenListQuery }),
    async (ctx) => {
      ctx.body = await service.listTokens(input(ctx, 'query', adminTokenListQuery));
    },
  );

  router.post(
    '/tokens/:id/revoke',
    describeRoute({
      tag: 'Admin: tokens',
      summary: 'Revoke an OAuth token',
      description: 'Optionally tells the user and the partner by mail.',
      responses: { 200: ok('The revoked token', adminRevokedTokenSchema), 404: ok('No such token') },
    }),
    validate({ params: adminIdParams.token, body: adminRevokeTokenBody }),
    async (ctx) => {
      ctx.body = await service.revokeToken(
        input(ctx, 'params', adminIdParams.token).id,
        input(ctx, 'body', adminRevokeTokenBody),
        actor(ctx),
      );
    },
  );

  router.get(
    '/oauth-authorizations',
    describeRoute({
      tag: 'Admin: tokens',
      summary: 'List OAuth authorizations (grants)',
      responses: { 200: ok('Authorizations', adminAuthorizationListSchema) },
    }),
    validate({ query: adminTokenListQuery }),
    async (ctx) => {
      ctx.body = await service.listAuthorizations(input(ctx, 'query', adminTokenListQuery));
    },
  );

  router.post(
    '/oauth-authorizations/:id/revoke',
    describeRoute({
      tag: 'Admin: tokens',
      summary: 'Revoke an OAuth authorization',
      description:
        'Ends the grant and every token issued under it; optionally tells the user and the partner by mail.',
      responses: {
        200: ok('The revoked authorization', adminAuthorizationSchema),
        404: ok('No such authorization'),
      },
    }),
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
