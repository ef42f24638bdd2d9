import type Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  LIMITS,
  createSiteBody,
  paging,
  siteIconUploadSchema,
  siteIdParams,
  siteListSchema,
  siteSchema,
  updateSiteBody,
} from '@attestly/contracts';
import { assert, notFound } from '../../../errors';
import { readMultipart } from '../../../middleware/multipart';
import { ok } from '../../../middleware/describe';
import { createRouter, removesOwn, routes } from '../../../middleware/route';
import type { PartnerStatsService } from '../stats/service';
import type { SiteService } from './service';
import { partnerId } from '../accounts/routes';
import { origin } from '../../../lib/request-origin';
import { presentSite } from './presenters';

/** What these routes take from the app (services.ts builds it and passes it in). */
export type SiteRoutesServices = {
  sites: SiteService;
  partnerStats: PartnerStatsService;
  requirePartner: Middleware;
};

const duplicate = ok(
  'You already have a live site with this name on this domain (`sites.duplicate`), or you have 100 sites already (`sites.limit`)',
);

/** spec 01 §7 "Partner": a partner's sites (OIDC clients). Every lookup is scoped to the signed-in partner. */
export function siteRoutes(services: SiteRoutesServices): Router {
  const { sites, partnerStats, requirePartner } = services;
  const router = createRouter();
  const route = routes(router, { tag: 'Sites', guards: [requirePartner] });

  route.get('/partners/sites', {
    summary: 'List your sites',
    responses: { 200: ok('Sites', siteListSchema) },
    input: { query: paging },
    handler: async ({ query, ctx }) => {
      const { sites: rows, total, counts } = await sites.list(partnerId(ctx), query);
      const verifications = await partnerStats.siteVerificationCounts(partnerId(ctx));
      return {
        sites: rows.map((site) =>
          presentSite(site, {
            oauthAuthorizations: counts.get(site.id),
            verificationCount: verifications.get(site.id),
          }),
        ),
        total_count: total,
      };
    },
  });

  route.post('/partners/sites', {
    summary: 'Create a site (an OpenID Connect client)',
    description:
      'Confidential sites get a `client_secret` in this answer only; it is stored as a keyed hash and cannot be shown again. Redirect URIs must be https except for localhost. The domain must be the site’s own, not a public suffix such as co.uk or github.io (422 `sites.public_suffix`).',
    responses: { 201: ok('Created site with its client credentials', siteSchema), 409: duplicate },
    input: { body: createSiteBody },
    status: 201,
    handler: async ({ body, ctx }) => {
      const { site, clientSecret } = await sites.create(partnerId(ctx), body, origin(ctx));
      return presentSite(site, { clientSecret: clientSecret ?? undefined });
    },
  });

  route.get('/partners/sites/:id', {
    summary: 'Read one of your sites',
    responses: { 200: ok('Site', siteSchema), 404: ok('Not one of your sites') },
    input: { params: siteIdParams },
    handler: async ({ params, ctx }) => {
      const site = await sites.ownSite(partnerId(ctx), params.id);
      const counts = await sites.authorizationCounts([site.id]);
      return presentSite(site, { oauthAuthorizations: counts.get(site.id) });
    },
  });

  route.put('/partners/sites/:id', {
    summary: 'Update one of your sites',
    description: 'A new domain must be the site’s own, not a public suffix (422 `sites.public_suffix`).',
    responses: { 200: ok('Updated site', siteSchema), 404: ok('Not one of your sites'), 409: duplicate },
    input: { params: siteIdParams, body: updateSiteBody },
    handler: async ({ params, body, ctx }) => {
      const site = await sites.update(partnerId(ctx), params.id, body, origin(ctx));
      const counts = await sites.authorizationCounts([site.id]);
      return presentSite(site, { oauthAuthorizations: counts.get(site.id) });
    },
  });

  route.delete('/partners/sites/:id', {
    summary: 'Delete one of your sites',
    description: "Revokes every user's grant to the site.",
    responses: { 204: ok('Deleted'), 404: ok('Not one of your sites') },
    ...removesOwn(siteIdParams, partnerId, sites.remove),
  });

  route.post('/partners/sites/:id/client-secret', {
    summary: 'Rotate the client secret',
    description: 'The old secret stops working at once; the new one is in this answer only.',
    responses: { 200: ok('Site with its new client_secret', siteSchema), 404: ok('Not one of your sites') },
    input: { params: siteIdParams },
    handler: async ({ params, ctx }) => {
      const { site, clientSecret } = await sites.rotateSecret(partnerId(ctx), params.id, origin(ctx));
      return presentSite(site, { clientSecret });
    },
  });

  route.post('/partners/sites/:id/icon', {
    summary: 'Upload a site icon',
    description:
      'Multipart field `icon`: a PNG, JPG, GIF or WebP of at most 1 MB (the content is sniffed, not trusted).',
    documentedBody: siteIconUploadSchema,
    multipart: true,
    responses: { 200: ok('Site with its icon_url', siteSchema), 404: ok('Not one of your sites') },
    input: { params: siteIdParams },
    handler: async ({ params, ctx }) => {
      // Ownership first, so another partner's site id is a 404 before any upload is read.
      await sites.ownSite(partnerId(ctx), params.id);
      const { files } = await readMultipart(ctx, {
        fileFields: ['icon'],
        maxFileBytes: LIMITS.profilePhotoBytes,
        tooLargeMessage: 'Site icon must be 1MB or smaller',
        // No SVG: it can carry script.
        accept: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
        wrongTypeMessage: 'Site icon must be a PNG, JPG, GIF or WebP image',
      });
      const file = files[0];
      assert(file, 422, 'validation.failed', 'Please choose an icon to upload', [
        { path: 'icon', message: 'Please choose an icon to upload' },
      ]);
      return presentSite(await sites.setIcon(partnerId(ctx), params.id, file, origin(ctx)));
    },
  });

  // Public: the consent screen shows the icon with an <img>, which cannot send a bearer token.
  routes(router, { tag: 'Sites' }).get('/media/site-icons/:key', {
    summary: 'Fetch a site icon',
    description: 'Public, so that consent screens can show it with an <img>.',
    responses: { 200: { description: 'The image', contentType: 'image/*' }, 404: ok('No such icon') },
    handler: async ({ ctx }) => {
      const key = ctx.params.key ?? '';
      const icon = /^[A-Za-z0-9_-]{32}$/.test(key) ? await sites.icon(key) : null;
      if (!icon) throw notFound();
      ctx.type = icon.content_type;
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
      return icon.bytes;
    },
  });

  return router;
}
