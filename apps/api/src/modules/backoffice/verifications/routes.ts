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
import { ok } from '../../../middleware/describe';
import { routes } from '../../../middleware/route';
import { actionOn, actor, listOn, recordOn } from '../common';
import type { AdminVerificationService } from './service';

const idParams = adminIdParams.verification;
/** Decided already, or withdrawn when its account was deleted (`verification.withdrawn`, issue 21 item 9). */
const notOpen = (what: string) => ok(what, errorEnvelopeSchema);
const decided = {
  200: ok('Updated verification', adminVerificationDetailSchema),
  404: ok('No such verification'),
  409: notOpen('The case is not pending, or was withdrawn when its account was deleted'),
};

/** spec 02 §7: GET /verifications, GET /verifications/{id}, approve, reject, retrigger; and the kept media. */
export function mountVerificationRoutes(router: Router, service: AdminVerificationService): void {
  const route = routes(router, { tag: 'Admin: verifications' });

  route.get('/verifications', {
    summary: 'List verifications (the review queue)',
    responses: { 200: ok('Verifications', adminVerificationListSchema) },
    ...listOn(adminVerificationListQuery, service.list),
  });

  route.get('/verifications/:id', {
    summary: 'Read a verification',
    responses: {
      200: ok('Verification with its analysis, notes and kept media', adminVerificationDetailSchema),
      404: ok('No such verification'),
    },
    ...recordOn(idParams, service.detail),
  });

  route.post('/verifications/:id/approve', {
    summary: 'Approve a verification',
    description: 'The user is told of the decision by mail.',
    responses: decided,
    ...actionOn(idParams, adminApproveVerificationBody, service.approve),
  });

  route.post('/verifications/:id/reject', {
    summary: 'Reject a verification',
    description: 'The user is told of the decision by mail.',
    responses: decided,
    ...actionOn(idParams, adminRejectVerificationBody, service.reject),
  });

  route.post('/verifications/:id/retrigger', {
    summary: 'Analyse a verification again',
    responses: {
      200: ok('Updated verification', adminVerificationDetailSchema),
      404: ok('No such verification'),
      409: notOpen(
        'The case cannot be analysed again (decided, media gone, changed meanwhile, or withdrawn when its account was deleted)',
      ),
    },
    ...actionOn(idParams, adminRetriggerVerificationBody, service.retrigger),
  });

  // The kept photo, video or document, decrypted for this response only: never cached, never sniffed. The headers
  // are set once the media is found, so a refusal keeps the admin API's own.
  route.get('/verifications/:id/media/:mediaId', {
    summary: 'View kept media',
    description:
      'The photo, video or document, decrypted for this response only: never cached. Every viewing is audited.',
    responses: {
      200: { description: 'The media', contentType: 'application/octet-stream' },
      404: ok('No such verification or media'),
    },
    input: { params: adminMediaParams },
    handler: async ({ params, ctx }) => {
      const media = await service.media(params.id, params.mediaId, actor(ctx));
      ctx.set('Cache-Control', 'no-store, private');
      ctx.set('Pragma', 'no-cache');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Content-Disposition', 'inline');
      ctx.set('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox");
      ctx.type = media.contentType;
      return media.bytes;
    },
  });
}
