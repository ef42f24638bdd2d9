import Router from '@koa/router';
import type * as v from 'valibot';
import {
  connectedPartnerIdParams,
  connectedPartnerListSchema,
  revokedTokensSchema,
  userTokenIdParams,
  userTokenListSchema,
} from '@attestly/contracts';
import type { Session } from '../../../db/models/index';
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../../middleware/describe';
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
  const router = new Router();
  const userId = (ctx: { state: { session?: Session } }) => (ctx.state.session as Session).subject_id;

  router.get(
    '/users/tokens',
    describeRoute({
      tag: 'Tokens',
      summary: 'List your tokens',
      description:
        'Every grant you gave a partner site, active, expired or revoked (spec 01 §3 "Access token").',
      responses: { 200: ok('Tokens, newest first', userTokenListSchema) },
    }),
    requireUser,
    async (ctx) => {
      const { rows, names } = await grants.listForUser(userId(ctx));
      ctx.body = { tokens: rows.map((row) => presentUserToken(row, names)), total_count: rows.length };
    },
  );

  router.delete(
    '/users/tokens/:id',
    describeRoute({
      tag: 'Tokens',
      summary: 'Revoke a token',
      description: 'The site loses access at once: its access and refresh tokens stop working.',
      responses: { 204: ok('Revoked'), 404: ok('Not one of your tokens') },
    }),
    requireUser,
    validate({ params: userTokenIdParams }),
    async (ctx) => {
      const { id } = ctx.state.input.params as v.InferOutput<typeof userTokenIdParams>;
      await grants.revokeForUser(userId(ctx), id, origin(ctx));
      ctx.status = 204;
    },
  );

  router.get(
    '/users/connected-partners',
    describeRoute({
      tag: 'Tokens',
      summary: 'List the partners you are connected to',
      responses: { 200: ok('Partners with at least one active token', connectedPartnerListSchema) },
    }),
    requireUser,
    async (ctx) => {
      const { rows, names } = await grants.listForUser(userId(ctx));
      const partners = presentConnectedPartners(rows, names, clock.now());
      ctx.body = { partners, total_count: partners.length };
    },
  );

  router.delete(
    '/users/connected-partners/:id',
    describeRoute({
      tag: 'Tokens',
      summary: 'Disconnect a partner',
      description: "Revokes every active token of all the partner's sites.",
      responses: {
        200: ok('Number of tokens revoked', revokedTokensSchema),
        404: ok('Not a partner you are connected to'),
      },
    }),
    requireUser,
    validate({ params: connectedPartnerIdParams }),
    async (ctx) => {
      const { id } = ctx.state.input.params as v.InferOutput<typeof connectedPartnerIdParams>;
      const revoked = await grants.revokePartnerForUser(userId(ctx), id, origin(ctx));
      ctx.body = { revoked_tokens: revoked };
    },
  );

  return router;
}
