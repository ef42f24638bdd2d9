import type Router from '@koa/router';
import {
  connectedPartnerIdParams,
  connectedPartnerListSchema,
  revokedTokensSchema,
  userTokenIdParams,
  userTokenListSchema,
} from '@attestly/contracts';
import type { Session } from '../../../db/models/index';
import { ok } from '../../../middleware/describe';
import { createRouter, removesOwn, routes } from '../../../middleware/route';
import type { Middleware } from 'koa';
import type { Deps } from '../../../core/deps';
import type { GrantService } from './service';
import { origin } from '../../../lib/request-origin';
import { presentConnectedPartners, presentUserToken } from './presenters';

/** What these routes take from the app (services.ts builds it and passes it in). */
export type GrantRoutesServices = Pick<Deps, 'clock'> & { grants: GrantService; requireUser: Middleware };

/** spec 01 §7 "User": the grants a user gave partner sites (their "tokens") and the partners they reach. */
export function grantRoutes(services: GrantRoutesServices): Router {
  const { grants, requireUser, clock } = services;
  const router = createRouter();
  const userId = (ctx: { state: { session?: Session } }) => (ctx.state.session as Session).subject_id;

  const route = routes(router, { tag: 'Tokens', guards: [requireUser] });

  route.get('/users/tokens', {
    summary: 'List your tokens',
    description:
      'Every grant you gave a partner site, active, expired or revoked (spec 01 §3 "Access token").',
    responses: { 200: ok('Tokens, newest first', userTokenListSchema) },
    handler: async ({ ctx }) => {
      const { rows, names } = await grants.listForUser(userId(ctx));
      return { tokens: rows.map((row) => presentUserToken(row, names)), total_count: rows.length };
    },
  });

  route.delete('/users/tokens/:id', {
    summary: 'Revoke a token',
    description: 'The site loses access at once: its access and refresh tokens stop working.',
    responses: { 204: ok('Revoked'), 404: ok('Not one of your tokens') },
    ...removesOwn(userTokenIdParams, userId, grants.revokeForUser),
  });

  route.get('/users/connected-partners', {
    summary: 'List the partners you are connected to',
    responses: { 200: ok('Partners with at least one active token', connectedPartnerListSchema) },
    handler: async ({ ctx }) => {
      const { rows, names } = await grants.listForUser(userId(ctx));
      const partners = presentConnectedPartners(rows, names, clock.now());
      return { partners, total_count: partners.length };
    },
  });

  route.delete('/users/connected-partners/:id', {
    summary: 'Disconnect a partner',
    description: "Revokes every active token of all the partner's sites.",
    responses: {
      200: ok('Number of tokens revoked', revokedTokensSchema),
      404: ok('Not a partner you are connected to'),
    },
    input: { params: connectedPartnerIdParams },
    handler: async ({ params, ctx }) => ({
      revoked_tokens: await grants.revokePartnerForUser(userId(ctx), params.id, origin(ctx)),
    }),
  });

  return router;
}
