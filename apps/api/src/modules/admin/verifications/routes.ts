import type Router from '@koa/router';
import {
  adminApproveVerificationBody,
  adminIdParams,
  adminMediaParams,
  adminRejectVerificationBody,
  adminRetriggerVerificationBody,
  adminVerificationListQuery,
} from '@attestly/contracts';
import { validate } from '../../../middleware/validate';
import { actor, input } from '../common';
import type { AdminVerificationService } from './service';

const idParams = adminIdParams.verification;

/** spec 02 §7: GET /verifications, GET /verifications/{id}, approve, reject, retrigger; and the kept media. */
export function mountVerificationRoutes(router: Router, service: AdminVerificationService): void {
  router.get('/verifications', validate({ query: adminVerificationListQuery }), async (ctx) => {
    ctx.body = await service.list(input(ctx, 'query', adminVerificationListQuery));
  });

  router.get('/verifications/:id', validate({ params: idParams }), async (ctx) => {
    ctx.body = await service.detail(input(ctx, 'params', idParams).id);
  });

  router.post(
    '/verifications/:id/approve',
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
  router.get('/verifications/:id/media/:mediaId', validate({ params: adminMediaParams }), async (ctx) => {
    const { id, mediaId } = input(ctx, 'params', adminMediaParams);
    const media = await service.media(id, mediaId, actor(ctx));
    ctx.set('Cache-Control', 'no-store, private');
    ctx.set('Pragma', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Disposition', 'inline');
    ctx.set('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox");
    ctx.type = media.contentType;
    ctx.body = media.bytes;
  });
}
