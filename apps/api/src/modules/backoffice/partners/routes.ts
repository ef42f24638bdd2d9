import type Router from '@koa/router';
import * as v from 'valibot';
import {
  adminCreatePartnerBody,
  adminCreateSiteBody,
  adminApiKeySchema,
  adminCreatedSiteSchema,
  adminDeactivatePartnerBody,
  adminIdParams,
  adminPartnerDetailSchema,
  adminPartnerListSchema,
  adminSiteListSchema,
  adminPartnerActionBody,
  adminPartnerListQuery,
  adminUpdatePartnerBody,
} from '@attestly/contracts';
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../public/docs/describe';
import { actor, input } from '../common';
import type { AdminPartnerService } from './service';

const idParams = adminIdParams.partner;
const emptyBody = v.object({});

/** spec 02 §7 partner calls, with approve and suspend made real. */
export function mountPartnerRoutes(router: Router, service: AdminPartnerService): void {
  router.get(
    '/partners',
    describeRoute({
      tag: 'Admin: partners',
      summary: 'List partners',
      responses: { 200: ok('Partners', adminPartnerListSchema) },
    }),
    validate({ query: adminPartnerListQuery }),
    async (ctx) => {
      ctx.body = await service.list(input(ctx, 'query', adminPartnerListQuery));
    },
  );

  router.post(
    '/partners',
    describeRoute({
      tag: 'Admin: partners',
      summary: 'Create a partner account',
      description:
        'With `sign_in: show_password` (the default) the first password is in this answer only (`temporary_password`), ' +
        'to hand to the partner; with `send_invitation` the partner is mailed a link to choose a password instead.',
      responses: {
        201: ok('The partner', adminPartnerDetailSchema),
        409: ok('The address is already registered'),
      },
    }),
    validate({ body: adminCreatePartnerBody }),
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 201;
      ctx.body = await service.create(input(ctx, 'body', adminCreatePartnerBody), actor(ctx));
    },
  );

  router.get(
    '/partners/:id',
    describeRoute({
      tag: 'Admin: partners',
      summary: 'Read a partner',
      responses: {
        200: ok('Partner with its sites and statistics', adminPartnerDetailSchema),
        404: ok('No such partner'),
      },
    }),
    validate({ params: idParams }),
    async (ctx) => {
      ctx.body = await service.detail(input(ctx, 'params', idParams).id);
    },
  );

  router.put(
    '/partners/:id',
    describeRoute({
      tag: 'Admin: partners',
      summary: 'Update a partner',
      responses: { 200: ok('Updated partner', adminPartnerDetailSchema), 404: ok('No such partner') },
    }),
    validate({ params: idParams, body: adminUpdatePartnerBody }),
    async (ctx) => {
      ctx.body = await service.update(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminUpdatePartnerBody),
        actor(ctx),
      );
    },
  );

  router.post(
    '/partners/:id/deactivate',
    describeRoute({
      tag: 'Admin: partners',
      summary: 'Deactivate a partner',
      responses: { 200: ok('Updated partner', adminPartnerDetailSchema), 404: ok('No such partner') },
    }),
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
    describeRoute({
      tag: 'Admin: partners',
      summary: 'Approve (activate) a partner',
      responses: { 200: ok('Updated partner', adminPartnerDetailSchema), 404: ok('No such partner') },
    }),
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
    describeRoute({
      tag: 'Admin: partners',
      summary: 'Suspend a partner',
      description: 'A suspended partner can neither sign in nor call the API.',
      responses: { 200: ok('Updated partner', adminPartnerDetailSchema), 404: ok('No such partner') },
    }),
    validate({ params: idParams, body: adminPartnerActionBody }),
    async (ctx) => {
      ctx.body = await service.suspend(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminPartnerActionBody),
        actor(ctx),
      );
    },
  );

  router.delete(
    '/partners/:id',
    describeRoute({
      tag: 'Admin: partners',
      summary: 'Delete a partner account nobody has used',
      description:
        'Only a partner with no verifications, no user grants to its sites and no paid plan: anything else is a ' +
        '409 (deactivate it instead). Its sites, API keys and webhooks are deleted with it; the audit trail stays.',
      responses: { 204: ok('Deleted'), 404: ok('No such partner'), 409: ok('The partner has been used') },
    }),
    validate({ params: idParams }),
    async (ctx) => {
      await service.remove(input(ctx, 'params', idParams).id, actor(ctx));
      ctx.status = 204;
    },
  );

  router.post(
    '/partners/:id/regenerate-api-key',
    describeRoute({
      tag: 'Admin: partners',
      summary: "Replace the partner's live API key",
      description: 'The previous key stops working at once; the new one is in this answer only.',
      responses: { 200: ok('The new key', adminApiKeySchema), 404: ok('No such partner') },
    }),
    validate({ params: idParams, body: emptyBody }),
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await service.regenerateApiKey(input(ctx, 'params', idParams).id, actor(ctx));
    },
  );

  router.get(
    '/partners/:id/sites',
    describeRoute({
      tag: 'Admin: partners',
      summary: "List a partner's sites",
      responses: { 200: ok('Sites', adminSiteListSchema), 404: ok('No such partner') },
    }),
    validate({ params: idParams }),
    async (ctx) => {
      const { id } = input(ctx, 'params', idParams);
      await service.findPartner(id);
      ctx.body = { sites: await service.sites(id) };
    },
  );

  router.post(
    '/partners/:id/sites',
    describeRoute({
      tag: 'Admin: partners',
      summary: 'Create a site for a partner',
      description:
        'A confidential site’s `client_secret` is in this answer only. The domain must be the site’s own, not a public suffix (422 `sites.public_suffix`).',
      responses: {
        201: ok('The site with its client secret', adminCreatedSiteSchema),
        404: ok('No such partner'),
        409: ok('The partner already has a live site with this name on this domain (`sites.duplicate`)'),
      },
    }),
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
