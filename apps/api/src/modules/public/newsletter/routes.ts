import Router from '@koa/router';
import type * as v from 'valibot';
import { messageSchema, newsletterSubscribeBody, newsletterTokenBody } from '@attestly/contracts';
import { rateLimit } from '../../../middleware/rate-limit';
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../../middleware/describe';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { NewsletterService } from './service';
import { origin } from '../../../lib/request-origin';

/** What these routes take from the app (services.ts builds it and passes it in). */
export type NewsletterRoutesServices = { newsletter: NewsletterService; limiter: RateLimiter };

export function newsletterRoutes({ newsletter, limiter }: NewsletterRoutesServices): Router {
  const router = new Router();
  const perIp = rateLimit(
    limiter,
    { name: 'newsletter:ip', limit: 20, windowMs: 60 * 60_000 },
    (ctx) => ctx.ip,
  );
  router.post(
    '/newsletter/subscribe',
    describeRoute({
      tag: 'Newsletter',
      summary: 'Subscribe (sends a confirmation mail)',
      limited: true,
      responses: { 202: ok('Confirmation mail sent', messageSchema) },
    }),
    perIp,
    validate({ body: newsletterSubscribeBody }),
    async (ctx) => {
      const { email } = ctx.state.input.body as v.InferOutput<typeof newsletterSubscribeBody>;
      await newsletter.subscribe(email, origin(ctx));
      ctx.status = 202;
      ctx.body = { message: 'Almost done: check your inbox to confirm your subscription.' };
    },
  );
  router.post(
    '/newsletter/confirm',
    describeRoute({
      tag: 'Newsletter',
      summary: 'Confirm a subscription',
      limited: true,
      responses: { 200: ok('Confirmed', messageSchema) },
    }),
    perIp,
    validate({ body: newsletterTokenBody }),
    async (ctx) => {
      await newsletter.confirm(
        (ctx.state.input.body as v.InferOutput<typeof newsletterTokenBody>).token,
        origin(ctx),
      );
      ctx.body = { message: 'Your subscription is confirmed.' };
    },
  );
  router.post(
    '/newsletter/unsubscribe',
    describeRoute({
      tag: 'Newsletter',
      summary: 'Unsubscribe',
      limited: true,
      responses: { 200: ok('Unsubscribed', messageSchema) },
    }),
    perIp,
    validate({ body: newsletterTokenBody }),
    async (ctx) => {
      await newsletter.unsubscribe(
        (ctx.state.input.body as v.InferOutput<typeof newsletterTokenBody>).token,
        origin(ctx),
      );
      ctx.body = { message: 'You have been unsubscribed.' };
    },
  );
  return router;
}
