import type Router from '@koa/router';
import * as v from 'valibot';
import {
  adminCreatePartnerBody,
  adminCreateSiteBody,
  adminDeactivatePartnerBody,
  adminIdParams,
  adminPartnerActionBody,
  adminPartnerListQuery,
  adminUpdatePartnerBody,
} from '@attestly/contracts';
import { validate } from '../../../middleware/validate';
import { actor, input } from '../common';
import type { AdminPartnerService } from './service';

const idParams = adminIdParams.partner;
const emptyBody = v.object({});

/** spec 02 §7 partner calls, with approve and suspend made real. */
export function mountPartnerRoutes(router: Router, service: AdminPartnerService): void {
  router.get('/partners', validate({ query: adminPartnerListQuery }), async (ctx) => {
    ctx.body = await service.list(input(ctx, 'query', adminPartnerListQuery));
  });

  router.post('/partners', validate({ body: adminCreatePartnerBody }), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = await service.create(input(ctx, 'body', adminCreatePartnerBody), actor(ctx));
  });

  router.get('/partners/:id', validate({ params: idParams }), async (ctx) => {
    ctx.body = await service.detail(input(ctx, 'params', idParams).id);
  });

  router.put('/partners/:id', validate({ params: idParams, body: adminUpdatePartnerBody }), async (ctx) => {
    ctx.body = await service.update(
      input(ctx, 'params', idParams).id,
      input(ctx, 'body', adminUpdatePartnerBody),
      actor(ctx),
    );
  });

  router.post(
    '/partners/:id/deactivate',
    validate({ params: idParams, body: adminDeactivatePartnerBody }),
    async (ctx) => {
      ctx.body = await service.deactivate(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminDeactivatePartnerBody),
        actor(ctx),
      );
    },
  );

  router.post(
    '/partners/:id/approve',
    validate({ params: idParams, body: adminPartnerActionBody }),
    async (ctx) => {
      ctx.body = await service.approve(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminPartnerActionBody),
        actor(ctx),
      );
    },
  );

  router.post(
    '/partners/:id/suspend',
    validate({ params: idParams, body: adminPartnerActionBody }),
    async (ctx) => {
      ctx.body = await service.suspend(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminPartnerActionBody),
        actor(ctx),
      );
    },
  );

  router.post(
    '/partners/:id/regenerate-api-key',
    validate({ params: idParams, body: emptyBody }),
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await service.regenerateApiKey(input(ctx, 'params', idParams).id, actor(ctx));
    },
  );

  router.get('/partners/:id/sites', validate({ params: idParams }), async (ctx) => {
    const { id } = input(ctx, 'params', idParams);
    await service.findPartner(id);
    ctx.body = { sites: await service.sites(id) };
  });

  router.post(
    '/partners/:id/sites',
    validate({ params: idParams, body: adminCreateSiteBody }),
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 201;
      ctx.body = await service.createSite(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminCreateSiteBody),
        actor(ctx),
      );
    },
  );
}
