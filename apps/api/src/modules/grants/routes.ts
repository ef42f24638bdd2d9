import Router from '@koa/router';
import type * as v from 'valibot';
import { connectedPartnerIdParams, userTokenIdParams } from '@attestly/contracts';
import type { Session } from '../../db/models';
import { validate } from '../../middleware/validate';
import type { AppServices } from '../../services';
import { origin } from '../users/routes';
import { presentConnectedPartners, presentUserToken } from './presenters';

/** spec 01 §7 "User": the grants a user gave partner sites (their "tokens") and the partners they reach. */
export function grantRoutes(services: AppServices): Router {
  const { grants, requireUser, clock } = services;
  const router = new Router();
  const userId = (ctx: { state: { session?: Session } }) => (ctx.state.session as Session).subject_id;

  router.get('/users/tokens', requireUser, async (ctx) => {
    const { rows, names } = await grants.listForUser(userId(ctx));
    ctx.body = { tokens: rows.map((row) => presentUserToken(row, names)), total_count: rows.length };
  });

  router.delete('/users/tokens/:id', requireUser, validate({ params: userTokenIdParams }), async (ctx) => {
    const { id } = ctx.state.input.params as v.InferOutput<typeof userTokenIdParams>;
    await grants.revokeForUser(userId(ctx), id, origin(ctx));
    ctx.status = 204;
  });

  router.get('/users/connected-partners', requireUser, async (ctx) => {
    const { rows, names } = await grants.listForUser(userId(ctx));
    const partners = presentConnectedPartners(rows, names, clock.now());
    ctx.body = { partners, total_count: partners.length };
  });

  router.delete(
    '/users/connected-partners/:id',
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
