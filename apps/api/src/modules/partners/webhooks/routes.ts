import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type * as v from 'valibot';
import {
  createWebhookBody,
  updateWebhookBody,
  webhookDeliveriesQuery,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookDeliveryParams,
  webhookIdParams,
  webhookListSchema,
  webhookSchema,
  webhookTestResultSchema,
} from '@attestly/contracts';
import { rateLimit } from '../../../middleware/rate-limit';
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../../middleware/describe';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { WebhookService } from './service';
import { partnerId } from '../accounts/routes';
import { origin } from '../../../lib/request-origin';

const input = <T extends v.GenericSchema>(ctx: Context, part: 'params' | 'query' | 'body', _schema: T) =>
  (ctx.state.input as Record<string, unknown>)[part] as v.InferOutput<T>;

/** What these routes take from the app (services.ts builds it and passes it in). */
export type WebhookRoutesServices = {
  webhooks: WebhookService;
  limiter: RateLimiter;
  requirePartner: Middleware;
};

/** spec 01 §7 "Partner": webhook endpoints, the test ping, the delivery log and redelivery (DESIGN.md §6). */
export function webhookRoutes(services: WebhookRoutesServices): Router {
  const { webhooks, requirePartner, limiter } = services;
  const router = new Router();

  router.get(
    '/partners/webhooks',
    describeRoute({
      tag: 'Webhooks',
      summary: 'List your webhook endpoints',
      responses: { 200: ok('Webhook endpoints, oldest first', webhookListSchema) },
    }),
    requirePartner,
    async (ctx) => {
      ctx.body = await webhooks.list(partnerId(ctx));
    },
  );

  router.post(
    '/partners/webhooks',
    describeRoute({
      tag: 'Webhooks',
      summary: 'Add a webhook endpoint',
      description:
        'The URL must be public https (private and loopback addresses are refused). The signing `secret` is in this answer only; deliveries carry an `Attestly-Signature` header made with it.',
      responses: { 201: ok('The endpoint with its signing secret', webhookSchema) },
    }),
    requirePartner,
    validate({ body: createWebhookBody }),
    async (ctx) => {
      ctx.status = 201;
      ctx.body = await webhooks.create(partnerId(ctx), input(ctx, 'body', createWebhookBody), origin(ctx));
    },
  );

  router.get(
    '/partners/webhooks/:id',
    describeRoute({
      tag: 'Webhooks',
      summary: 'Read one webhook endpoint',
      responses: { 200: ok('Webhook endpoint', webhookSchema), 404: ok('Not one of your webhooks') },
    }),
    requirePartner,
    validate({ params: webhookIdParams }),
    async (ctx) => {
      ctx.body = await webhooks.get(partnerId(ctx), input(ctx, 'params', webhookIdParams).id);
    },
  );

  router.put(
    '/partners/webhooks/:id',
    describeRoute({
      tag: 'Webhooks',
      summary: 'Update a webhook endpoint',
      description:
        'Change the URL or events, switch it on or off, or rotate its secret (the new one is in this answer only).',
      responses: { 200: ok('Updated endpoint', webhookSchema), 404: ok('Not one of your webhooks') },
    }),
    requirePartner,
    validate({ params: webhookIdParams, body: updateWebhookBody }),
    async (ctx) => {
      ctx.body = await webhooks.update(
        partnerId(ctx),
        input(ctx, 'params', webhookIdParams).id,
        input(ctx, 'body', updateWebhookBody),
        origin(ctx),
      );
    },
  );

  router.delete(
    '/partners/webhooks/:id',
    describeRoute({
      tag: 'Webhooks',
      summary: 'Delete a webhook endpoint',
      responses: { 204: ok('Deleted'), 404: ok('Not one of your webhooks') },
    }),
    requirePartner,
    validate({ params: webhookIdParams }),
    async (ctx) => {
      await webhooks.remove(partnerId(ctx), input(ctx, 'params', webhookIdParams).id, origin(ctx));
      ctx.status = 204;
    },
  );

  router.post(
    '/partners/webhooks/:id/test',
    describeRoute({
      tag: 'Webhooks',
      summary: 'Send a test ping',
      description:
        'Delivers a signed `ping` event at once (no retries) and reports what the receiver answered. A failure is `error`: "refused" or "failed" and a category (`refused: no public address`, `failed: timeout`, `failed: HTTP 503`, …); `response_excerpt` holds the first 500 bytes of the answer of a public receiver only.',
      responses: {
        200: ok('The receiver’s answer and the logged delivery', webhookTestResultSchema),
        404: ok('Not one of your webhooks'),
      },
    }),
    requirePartner,
    // Each test opens an outbound connection: limited so the endpoint cannot be used to hammer a receiver.
    rateLimit(
      limiter,
      { name: 'webhook-test:partner', limit: 20, windowMs: 60_000 },
      partnerId,
      'Too many test deliveries. Please wait a minute and try again.',
    ),
    validate({ params: webhookIdParams }),
    async (ctx) => {
      ctx.body = await webhooks.test(partnerId(ctx), input(ctx, 'params', webhookIdParams).id);
    },
  );

  router.get(
    '/partners/webhooks/:id/deliveries',
    describeRoute({
      tag: 'Webhooks',
      summary: 'List the deliveries of an endpoint',
      description:
        'Newest first, each with its attempts (status code, latency, "refused" or "failed" and a category, and an excerpt of a public receiver’s answer).',
      responses: { 200: ok('Deliveries', webhookDeliveryListSchema), 404: ok('Not one of your webhooks') },
    }),
    requirePartner,
    validate({ params: webhookIdParams, query: webhookDeliveriesQuery }),
    async (ctx) => {
      const { skip, limit } = input(ctx, 'query', webhookDeliveriesQuery);
      ctx.body = await webhooks.deliveries(
        partnerId(ctx),
        input(ctx, 'params', webhookIdParams).id,
        skip,
        limit,
      );
    },
  );

  router.post(
    '/partners/webhooks/:id/deliveries/:deliveryId/redeliver',
    describeRoute({
      tag: 'Webhooks',
      summary: 'Deliver an event again',
      description: 'Queues the delivery for an immediate new attempt; the endpoint must be active.',
      responses: {
        202: ok('The delivery, queued', webhookDeliverySchema),
        404: ok('No such endpoint or delivery'),
      },
    }),
    requirePartner,
    validate({ params: webhookDeliveryParams }),
    async (ctx) => {
      const params = input(ctx, 'params', webhookDeliveryParams);
      ctx.status = 202;
      ctx.body = await webhooks.redeliver(partnerId(ctx), params.id, params.deliveryId, origin(ctx));
    },
  );

  return router;
}
