import type Router from '@koa/router';
import {
  adminApproveVerificationBody,
  adminIdParams,
  adminMediaParams,
  adminRejectVerificationBody,
  adminRetriggerVerificationBody,
  adminVerificationDetailSchema,
  adminVerificationListQuery,
  adminVerificationListSchema,
  errorEnvelopeSchema,
} from '@attestly/contracts';
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../../middleware/describe';
import { actor, input } from '../common';
import type { AdminVerificationService } from './service';

const idParams = adminIdParams.verification;
/** Decided already, or withdrawn when its account was deleted (`verification.withdrawn`, issue 21 item 9). */
const notOpen = (what: string) => ok(what, errorEnvelopeSchema);

/** spec 02 §7: GET /verifications, GET /verifications/{id}, approve, reject, retrigger; and the kept media. */
export function mountVerificationRoutes(router: Router, service: AdminVerificationService): void {
  router.get(
    '/verifications',
    describeRoute({
      tag: 'Admin: verifications',
      summary: 'List verifications (the review queue)',
      responses: { 200: ok('Verifications', adminVerificationListSchema) },
    }),
    validate({ query: adminVerificationListQuery }),
    async (ctx) => {
      ctx.body = await service.list(input(ctx, 'query', adminVerificationListQuery));
    },
  );

  router.get(
    '/verifications/:id',
    describeRoute({
      tag: 'Admin: verifications',
      summary: 'Read a verification',
      responses: {
        200: ok('Verification with its analysis, notes and kept media', adminVerificationDetailSchema),
        404: ok('No such verification'),
      },
    }),
    validate({ params: idParams }),
    async (ctx) => {
      ctx.body = await service.detail(input(ctx, 'params', idParams).id);
    },
  );

  router.post(
    '/verifications/:id/approve',
    describeRoute({
      tag: 'Admin: verifications',
      summary: 'Approve a verification',
      description: 'The user is told of the decision by mail.',
      responses: {
        200: ok('Updated verification', adminVerificationDetailSchema),
        404: ok('No such verification'),
        409: notOpen('The case is not pending, or was withdrawn when its account was deleted'),
      },
    }),
    validate({ params: idParams, body: adminApproveVerificationBody }),
    async (ctx) => {
      ctx.body = await service.approve(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminApproveVerificationBody),
        actor(ctx),
      );
    },
  );

  router.post(
    '/verifications/:id/reject',
    describeRoute({
      tag: 'Admin: verifications',
      summary: 'Reject a verification',
      description: 'The user is told of the decision by mail.',
      responses: {
        200: ok('Updated verification', adminVerificationDetailSchema),
        404: ok('No such verification'),
        409: notOpen('The case is not pending, or was withdrawn when its account was deleted'),
      },
    }),
    validate({ params: idParams, body: adminRejectVerificationBody }),
    async (ctx) => {
      ctx.body = await service.reject(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminRejectVerificationBody),
        actor(ctx),
      );
    },
  );

  router.post(
    '/verifications/:id/retrigger',
    describeRoute({
      tag: 'Admin: verifications',
      summary: 'Analyse a verification again',
      responses: {
        200: ok('Updated verification', adminVerificationDetailSchema),
        404: ok('No such verification'),
        409: notOpen(
          'The case cannot be analysed again (decided, media gone, changed meanwhile, or withdrawn when its account was deleted)',
        ),
      },
    }),
    validate({ params: idParams, body: adminRetriggerVerificationBody }),
    async (ctx) => {
      ctx.body = await service.retrigger(
        input(ctx, 'params', idParams).id,
        input(ctx, 'body', adminRetriggerVerificationBody),
        actor(ctx),
      );
    },
  );

  // The kept photo, video or document, decrypted for this response only: never cached, never sniffed.
  router.get(
    '/verifications/:id/media/:mediaId',
    describeRoute({
      tag: 'Admin: verifications',
      summary: 'View kept media',
      description:
        'The photo, video or document, decrypted for this response only: never cached. Every viewing is audited.',
      responses: {
        200: { description: 'The media', contentType: 'application/octet-stream' },
        404: ok('No such verification or media'),
      },
    }),
    validate({ params: adminMediaParams }),
    async (ctx) => {
      const { id, mediaId } = input(ctx, 'params', adminMediaParams);
      const media = await service.media(id, mediaId, actor(ctx));
      ctx.set('Cache-Control', 'no-store, private');
      ctx.set('Pragma', 'no-cache');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Content-Disposition', 'inline');
      ctx.set('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox");
      ctx.type = media.contentType;
      ctx.body = media.bytes;
    },
  );
}
