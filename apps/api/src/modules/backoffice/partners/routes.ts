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
import { ok } from '../../../middleware/describe';
import { NO_STORE, routes } from '../../../middleware/route';
import { actionOn, actor, listOn, recordOn } from '../common';
import type { AdminPartnerService } from './service';

const idParams = adminIdParams.partner;
const emptyBody = v.object({});
const updated = { 200: ok('Updated partner', adminPartnerDetailSchema), 404: ok('No such partner') };

/** spec 02 §7 partner calls, with approve and suspend made real. */
export function mountPartnerRoutes(router: Router, service: AdminPartnerService): void {
  const route = routes(router, { tag: 'Admin: partners' });

  route.get('/partners', {
    summary: 'List partners',
    responses: { 200: ok('Partners', adminPartnerListSchema) },
    ...listOn(adminPartnerListQuery, service.list),
  });

  route.post('/partners', {
    summary: 'Create a partner account',
    description:
      'With `sign_in: show_password` (the default) the first password is in this answer only (`temporary_password`), ' +
      'to hand to the partner; with `send_invitation` the partner is mailed a link to choose a password instead.',
    responses: {
      201: ok('The partner', adminPartnerDetailSchema),
      409: ok('The address is already registered'),
    },
    input: { body: adminCreatePartnerBody },
    status: 201,
    headers: NO_STORE,
    handler: ({ body, ctx }) => service.create(body, actor(ctx)),
  });

  route.get('/partners/:id', {
    summary: 'Read a partner',
    responses: {
      200: ok('Partner with its sites and statistics', adminPartnerDetailSchema),
      404: ok('No such partner'),
    },
    ...recordOn(idParams, service.detail),
  });

  route.put('/partners/:id', {
    summary: 'Update a partner',
    responses: updated,
    ...actionOn(idParams, adminUpdatePartnerBody, service.update),
  });

  route.post('/partners/:id/deactivate', {
    summary: 'Deactivate a partner',
    responses: updated,
    ...actionOn(idParams, adminDeactivatePartnerBody, service.deactivate),
  });

  route.post('/partners/:id/approve', {
    summary: 'Approve (activate) a partner',
    responses: updated,
    ...actionOn(idParams, adminPartnerActionBody, service.approve),
  });

  route.post('/partners/:id/suspend', {
    summary: 'Suspend a partner',
    description: 'A suspended partner can neither sign in nor call the API.',
    responses: updated,
    ...actionOn(idParams, adminPartnerActionBody, service.suspend),
  });

  route.delete('/partners/:id', {
    summary: 'Delete a partner account nobody has used',
    description:
      'Only a partner with no verifications, no user grants to its sites and no paid plan: anything else is a ' +
      '409 (deactivate it instead). Its sites, API keys and webhooks are deleted with it; the audit trail stays.',
    responses: { 204: ok('Deleted'), 404: ok('No such partner'), 409: ok('The partner has been used') },
    input: { params: idParams },
    status: 204,
    handler: async ({ params, ctx }) => {
      await service.remove(params.id, actor(ctx));
    },
  });

  route.post('/partners/:id/regenerate-api-key', {
    summary: "Replace the partner's live API key",
    description: 'The previous key stops working at once; the new one is in this answer only.',
    responses: { 200: ok('The new key', adminApiKeySchema), 404: ok('No such partner') },
    input: { params: idParams, body: emptyBody },
    headers: NO_STORE,
    handler: ({ params, ctx }) => service.regenerateApiKey(params.id, actor(ctx)),
  });

  route.get('/partners/:id/sites', {
    summary: "List a partner's sites",
    responses: { 200: ok('Sites', adminSiteListSchema), 404: ok('No such partner') },
    input: { params: idParams },
    handler: async ({ params }) => {
      await service.findPartner(params.id);
      return { sites: await service.sites(params.id) };
    },
  });

  route.post('/partners/:id/sites', {
    summary: 'Create a site for a partner',
    description:
      'A confidential site’s `client_secret` is in this answer only. The domain must be the site’s own, not a public suffix (422 `sites.public_suffix`).',
    responses: {
      201: ok('The site with its client secret', adminCreatedSiteSchema),
      404: ok('No such partner'),
      409: ok('The partner already has a live site with this name on this domain (`sites.duplicate`)'),
    },
    input: { params: idParams, body: adminCreateSiteBody },
    status: 201,
    headers: NO_STORE,
    handler: ({ params, body, ctx }) => service.createSite(params.id, body, actor(ctx)),
  });
}
