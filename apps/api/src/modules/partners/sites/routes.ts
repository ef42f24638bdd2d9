import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type * as v from 'valibot';
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
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../../middleware/describe';
import type { PartnerStatsService } from '../stats/service';
import type { SiteService } from './service';
import { partnerId } from '../accounts/routes';
import { origin } from '../../../lib/request-origin';
import { presentSite } from './presenters';

const params = (ctx: Context) => ctx.state.input.params as v.InferOutput<typeof siteIdParams>;

/** What these routes take from the app (services.ts builds it and passes it in). */
export type SiteRoutesServices = {
  sites: SiteService;
  partnerStats: PartnerStatsService;
  requirePartner: Middleware;
};

/** spec 01 §7 "Partner": a partner's sites (OIDC clients). Every lookup is scoped to the signed-in partner. */
export function siteRoutes(services: SiteRoutesServices): Router {
  const { sites, partnerStats, requirePartner } = services;
  const router = new Router();

  router.get(
    '/partners/sites',
    describeRoute({
      tag: 'Sites',
      summary: 'List your sites',
      responses: { 200: ok('Sites', siteListSchema) },
    }),
    requirePartner,
    validate({ query: paging }),
    async (ctx) => {
      const query = ctx.state.input.query as v.InferOutput<typeof paging>;
      const { sites: rows, total, counts } = await sites.list(partnerId(ctx), query);
      const verifications = await partnerStats.siteVerificationCounts(partnerId(ctx));
      ctx.body = {
        sites: rows.map((site) =>
          presentSite(site, {
            oauthAuthorizations: counts.get(site.id),
            verificationCount: verifications.get(site.id),
          }),
        ),
        total_count: total,
      };
    },
  );

  router.post(
    '/partners/sites',
    describeRoute({
      tag: 'Sites',
      summary: 'Create a site (an OpenID Connect client)',
      description:
        'Confidential sites get a `client_secret` in this answer only; it is stored as a keyed hash and cannot be shown again. Redirect URIs must be https except for localhost. The domain must be the site’s own, not a public suffix such as co.uk or github.io (422 `sites.public_suffix`).',
      responses: {
        201: ok('Created site with its client credentials', siteSchema),
        409: ok(
          'You already have a live site with this name on this domain (`sites.duplicate`), or you have 100 sites already (`sites.limit`)',
        ),
      },
    }),
    requirePartner,
    validate({ body: createSiteBody }),
    async (ctx) => {
      const body = ctx.state.input.body as v.InferOutput<typeof createSiteBody>;
      const { site, clientSecret } = await sites.create(partnerId(ctx), body, origin(ctx));
      ctx.status = 201;
      ctx.body = presentSite(site, { clientSecret: clientSecret ?? undefined });
    },
  );

  router.get(
    '/partners/sites/:id',
    describeRoute({
      tag: 'Sites',
      summary: 'Read one of your sites',
      responses: { 200: ok('Site', siteSchema), 404: ok('Not one of your sites') },
    }),
    requirePartner,
    validate({ params: siteIdParams }),
    async (ctx) => {
      const site = await sites.ownSite(partnerId(ctx), params(ctx).id);
      const counts = await sites.authorizationCounts([site.id]);
      ctx.body = presentSite(site, { oauthAuthorizations: counts.get(site.id) });
    },
  );

  router.put(
    '/partners/sites/:id',
    describeRoute({
      tag: 'Sites',
      summary: 'Update one of your sites',
      description: 'A new domain must be the site’s own, not a public suffix (422 `sites.public_suffix`).',
      responses: {
        200: ok('Updated site', siteSchema),
        404: ok('Not one of your sites'),
        409: ok(
          'You already have a live site with this name on this domain (`sites.duplicate`), or you have 100 sites already (`sites.limit`)',
        ),
      },
    }),
    requirePartner,
    validate({ params: siteIdParams, body: updateSiteBody }),
    async (ctx) => {
      const body = ctx.state.input.body as v.InferOutput<typeof updateSiteBody>;
      const site = await sites.update(partnerId(ctx), params(ctx).id, body, origin(ctx));
      const counts = await sites.authorizationCounts([site.id]);
      ctx.body = presentSite(site, { oauthAuthorizations: counts.get(site.id) });
    },
  );

  router.delete(
    '/partners/sites/:id',
    describeRoute({
      tag: 'Sites',
      summary: 'Delete one of your sites',
      description: "Revokes every user's grant to the site.",
      responses: { 204: ok('Deleted'), 404: ok('Not one of your sites') },
    }),
    requirePartner,
    validate({ params: siteIdParams }),
    async (ctx) => {
      await sites.remove(partnerId(ctx), params(ctx).id, origin(ctx));
      ctx.status = 204;
    },
  );

  router.post(
    '/partners/sites/:id/client-secret',
    describeRoute({
      tag: 'Sites',
      summary: 'Rotate the client secret',
      description: 'The old secret stops working at once; the new one is in this answer only.',
      responses: { 200: ok('Site with its new client_secret', siteSchema), 404: ok('Not one of your sites') },
    }),
    requirePartner,
    validate({ params: siteIdParams }),
    async (ctx) => {
      const { site, clientSecret } = await sites.rotateSecret(partnerId(ctx), params(ctx).id, origin(ctx));
      ctx.body = presentSite(site, { clientSecret });
    },
  );

  router.post(
    '/partners/sites/:id/icon',
    describeRoute({
      tag: 'Sites',
      summary: 'Upload a site icon',
      description:
        'Multipart field `icon`: a PNG, JPG, GIF or WebP of at most 1 MB (the content is sniffed, not trusted).',
      body: siteIconUploadSchema,
      multipart: true,
      responses: { 200: ok('Site with its icon_url', siteSchema), 404: ok('Not one of your sites') },
    }),
    requirePartner,
    validate({ params: siteIdParams }),
    async (ctx) => {
      // Ownership first, so another partner's site id is a 404 before any upload is read.
      await sites.ownSite(partnerId(ctx), params(ctx).id);
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
      const site = await sites.setIcon(partnerId(ctx), params(ctx).id, file, origin(ctx));
      ctx.body = presentSite(site);
    },
  );

  // Public: the consent screen shows the icon with an <img>, which cannot send a bearer token.
  router.get(
    '/media/site-icons/:key',
    describeRoute({
      tag: 'Sites',
      summary: 'Fetch a site icon',
      description: 'Public, so that consent screens can show it with an <img>.',
      responses: { 200: { description: 'The image', contentType: 'image/*' }, 404: ok('No such icon') },
    }),
    async (ctx) => {
      const key = ctx.params.key ?? '';
      const icon = /^[A-Za-z0-9_-]{32}$/.test(key) ? await sites.icon(key) : null;
      if (!icon) throw notFound();
      ctx.type = icon.content_type;
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
      ctx.body = icon.bytes;
    },
  );

  return router;
}
