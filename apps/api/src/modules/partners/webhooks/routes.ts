import type Router from '@koa/router';
import type { Middleware } from 'koa';
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
import { ok } from '../../../middleware/describe';
import { createRouter, removesOwn, routes } from '../../../middleware/route';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { WebhookService } from './service';
import { partnerId } from '../accounts/routes';
import { origin } from '../../../lib/request-origin';

/** What these routes take from the app (services.ts builds it and passes it in). */
export type WebhookRoutesServices = {
  webhooks: WebhookService;
  limiter: RateLimiter;
  requirePartner: Middleware;
};

const notYours = ok('Not one of your webhooks');

/** spec 01 §7 "Partner": webhook endpoints, the test ping, the delivery log and redelivery (DESIGN.md §6). */
export function webhookRoutes(services: WebhookRoutesServices): Router {
  const { webhooks, requirePartner, limiter } = services;
  const router = createRouter();
  const route = routes(router, { tag: 'Webhooks', guards: [requirePartner] });

  route.get('/partners/webhooks', {
    summary: 'List your webhook endpoints',
    responses: { 200: ok('Webhook endpoints, oldest first', webhookListSchema) },
    handler: ({ ctx }) => webhooks.list(partnerId(ctx)),
  });

  route.post('/partners/webhooks', {
    summary: 'Add a webhook endpoint',
    description:
      'The URL must be public https (private and loopback addresses are refused). The signing `secret` is in this answer only; deliveries carry an `Attestly-Signature` header made with it.',
    responses: { 201: ok('The endpoint with its signing secret', webhookSchema) },
    input: { body: createWebhookBody },
    status: 201,
    handler: ({ body, ctx }) => webhooks.create(partnerId(ctx), body, origin(ctx)),
  });

  route.get('/partners/webhooks/:id', {
    summary: 'Read one webhook endpoint',
    responses: { 200: ok('Webhook endpoint', webhookSchema), 404: notYours },
    input: { params: webhookIdParams },
    handler: ({ params, ctx }) => webhooks.get(partnerId(ctx), params.id),
  });

  route.put('/partners/webhooks/:id', {
    summary: 'Update a webhook endpoint',
    description:
      'Change the URL or events, switch it on or off, or rotate its secret (the new one is in this answer only).',
    responses: { 200: ok('Updated endpoint', webhookSchema), 404: notYours },
    input: { params: webhookIdParams, body: updateWebhookBody },
    handler: ({ params, body, ctx }) => webhooks.update(partnerId(ctx), params.id, body, origin(ctx)),
  });

  route.delete('/partners/webhooks/:id', {
    summary: 'Delete a webhook endpoint',
    responses: { 204: ok('Deleted'), 404: notYours },
    ...removesOwn(webhookIdParams, partnerId, webhooks.remove),
  });

  route.post('/partners/webhooks/:id/test', {
    summary: 'Send a test ping',
    description:
      'Delivers a signed `ping` event at once (no retries) and reports what the receiver answered. A failure is `error`: "refused" or "failed" and a category (`refused: no public address`, `failed: timeout`, `failed: HTTP 503`, …); `response_excerpt` holds the first 500 bytes of the answer of a public receiver only.',
    responses: {
      200: ok('The receiver’s answer and the logged delivery', webhookTestResultSchema),
      404: notYours,
    },
    guards: [
      // Each test opens an outbound connection: limited so the endpoint cannot be used to hammer a receiver.
      rateLimit(
        limiter,
        { name: 'webhook-test:partner', limit: 20, windowMs: 60_000 },
        partnerId,
        'Too many test deliveries. Please wait a minute and try again.',
      ),
    ],
    input: { params: webhookIdParams },
    handler: ({ params, ctx }) => webhooks.test(partnerId(ctx), params.id),
  });

  route.get('/partners/webhooks/:id/deliveries', {
    summary: 'List the deliveries of an endpoint',
    description:
      'Newest first, each with its attempts (status code, latency, "refused" or "failed" and a category, and an excerpt of a public receiver’s answer).',
    responses: { 200: ok('Deliveries', webhookDeliveryListSchema), 404: notYours },
    input: { params: webhookIdParams, query: webhookDeliveriesQuery },
    handler: ({ params, query, ctx }) =>
      webhooks.deliveries(partnerId(ctx), params.id, query.skip, query.limit),
  });

  route.post('/partners/webhooks/:id/deliveries/:deliveryId/redeliver', {
    summary: 'Deliver an event again',
    description: 'Queues the delivery for an immediate new attempt; the endpoint must be active.',
    responses: {
      202: ok('The delivery, queued', webhookDeliverySchema),
      404: ok('No such endpoint or delivery'),
    },
    input: { params: webhookDeliveryParams },
    status: 202,
    handler: ({ params, ctx }) =>
      webhooks.redeliver(partnerId(ctx), params.id, params.deliveryId, origin(ctx)),
  });

  return router;
}
