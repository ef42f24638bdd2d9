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
import { ok } from '../../../middleware/describe';
import { routes } from '../../../middleware/route';
import { actionOn, listOn } from '../common';
import type { AdminTokenService } from './service';

/** spec 02 §7 tokens and OAuth authorizations. */
export function mountTokenRoutes(router: Router, service: AdminTokenService): void {
  const route = routes(router, { tag: 'Admin: tokens' });

  route.get('/tokens', {
    summary: 'List OAuth tokens',
    responses: { 200: ok('Access and refresh tokens', adminTokenListSchema) },
    ...listOn(adminTokenListQuery, service.listTokens),
  });

  route.post('/tokens/:id/revoke', {
    summary: 'Revoke an OAuth token',
    description: 'Optionally tells the user and the partner by mail.',
    responses: { 200: ok('The revoked token', adminRevokedTokenSchema), 404: ok('No such token') },
    ...actionOn(adminIdParams.token, adminRevokeTokenBody, service.revokeToken),
  });

  route.get('/oauth-authorizations', {
    summary: 'List OAuth authorizations (grants)',
    responses: { 200: ok('Authorizations', adminAuthorizationListSchema) },
    ...listOn(adminTokenListQuery, service.listAuthorizations),
  });

  route.post('/oauth-authorizations/:id/revoke', {
    summary: 'Revoke an OAuth authorization',
    description:
      'Ends the grant and every token issued under it; optionally tells the user and the partner by mail.',
    responses: {
      200: ok('The revoked authorization', adminAuthorizationSchema),
      404: ok('No such authorization'),
    },
    ...actionOn(adminIdParams.authorization, adminRevokeTokenBody, service.revokeAuthorization),
  });
}
