import type Router from '@koa/router';
import { messageSchema, newsletterSubscribeBody, newsletterTokenBody } from '@attestly/contracts';
import { rateLimit } from '../../../middleware/rate-limit';
import { ok } from '../../../middleware/describe';
import { createRouter, confirms, routes } from '../../../middleware/route';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { NewsletterService } from './service';
import { origin } from '../../../lib/request-origin';

/** What these routes take from the app (services.ts builds it and passes it in). */
export type NewsletterRoutesServices = { newsletter: NewsletterService; limiter: RateLimiter };

export function newsletterRoutes({ newsletter, limiter }: NewsletterRoutesServices): Router {
  const router = createRouter();
  const perIp = rateLimit(
    limiter,
    { name: 'newsletter:ip', limit: 20, windowMs: 60 * 60_000 },
    (ctx) => ctx.ip,
  );
  const route = routes(router, { tag: 'Newsletter', guards: [perIp] });
  route.post('/newsletter/subscribe', {
    summary: 'Subscribe (sends a confirmation mail)',
    limited: true,
    responses: { 202: ok('Confirmation mail sent', messageSchema) },
    input: { body: newsletterSubscribeBody },
    status: 202,
    handler: confirms('Almost done: check your inbox to confirm your subscription.', ({ body, ctx }) =>
      newsletter.subscribe(body.email, origin(ctx)),
    ),
  });
  route.post('/newsletter/confirm', {
    summary: 'Confirm a subscription',
    limited: true,
    responses: { 200: ok('Confirmed', messageSchema) },
    input: { body: newsletterTokenBody },
    handler: confirms('Your subscription is confirmed.', ({ body, ctx }) =>
      newsletter.confirm(body.token, origin(ctx)),
    ),
  });
  route.post('/newsletter/unsubscribe', {
    summary: 'Unsubscribe',
    limited: true,
    responses: { 200: ok('Unsubscribed', messageSchema) },
    input: { body: newsletterTokenBody },
    handler: confirms('You have been unsubscribed.', ({ body, ctx }) =>
      newsletter.unsubscribe(body.token, origin(ctx)),
    ),
  });
  return router;
}
