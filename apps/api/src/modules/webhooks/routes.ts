import Router from '@koa/router';
import type { Context } from 'koa';
import type * as v from 'valibot';
import {
  createWebhookBody,
  updateWebhookBody,
  webhookDeliveriesQuery,
  webhookDeliveryParams,
  webhookIdParams,
} from '@attestly/contracts';
import { rateLimit } from '../../middleware/rate-limit';
import { validate } from '../../middleware/validate';
import type { AppServices } from '../../services';
import { partnerId } from '../partners/routes';
import { origin } from '../users/routes';

const input = <T extends v.GenericSchema>(ctx: Context, part: 'params' | 'query' | 'body', _schema: T) =>
  (ctx.state.input as Record<string, unknown>)[part] as v.InferOutput<T>;

/** spec 01 §7 "Partner": webhook endpoints, the test ping, the delivery log and redelivery (DESIGN.md §6). */
export function webhookRoutes(services: AppServices): Router {
  const { webhooks, requirePartner, limiter } = services;
  const router = new Router();

  router.get('/partners/webhooks', requirePartner, async (ctx) => {
    ctx.body = await webhooks.list(partnerId(ctx));
  });

  router.post('/partners/webhooks', requirePartner, validate({ body: createWebhookBody }), async (ctx) => {
    ctx.status = 201;
    ctx.body = await webhooks.create(partnerId(ctx), input(ctx, 'body', createWebhookBody), origin(ctx));
  });

  router.get('/partners/webhooks/:id', requirePartner, validate({ params: webhookIdParams }), async (ctx) => {
    ctx.body = await webhooks.get(partnerId(ctx), input(ctx, 'params', webhookIdParams).id);
  });

  router.put(
    '/partners/webhooks/:id',
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
    requirePartner,
    validate({ params: webhookIdParams }),
    async (ctx) => {
      await webhooks.remove(partnerId(ctx), input(ctx, 'params', webhookIdParams).id, origin(ctx));
      ctx.status = 204;
    },
  );

  router.post(
    '/partners/webhooks/:id/test',
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
