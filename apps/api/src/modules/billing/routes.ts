import Router from '@koa/router';
import type { Context } from 'koa';
import type * as v from 'valibot';
import { API_BASE_PATH, checkoutSessionQuery, checkoutSuccessQuery } from '@attestly/contracts';
import { AppError } from '../../errors';
import { validate } from '../../middleware/validate';
import type { AppServices } from '../../services';
import { partnerId } from '../partners/routes';
import { origin } from '../users/routes';

/** The Stripe webhook path; app.ts leaves its body unparsed, since the signature covers the exact bytes. */
export const STRIPE_WEBHOOK_PATH = `${API_BASE_PATH}/stripe/webhook`;
const STRIPE_BODY_LIMIT = 512 * 1024;

async function rawBody(ctx: Context): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > STRIPE_BODY_LIMIT) throw new AppError(413, 'request.too_large', 'Request body is too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const query = <T extends v.GenericSchema>(ctx: Context, _schema: T) =>
  ctx.state.input.query as v.InferOutput<T>;

/** spec 01 §7 "Partner": plans, usage, Stripe Checkout and the customer portal; Stripe's own webhook. */
export function billingRoutes(services: AppServices): Router {
  const { billing, requirePartner } = services;
  const router = new Router();

  router.get('/partners/subscription/plans', async (ctx) => {
    ctx.body = { data: billing.plans() };
  });

  router.get('/partners/subscription/usage', requirePartner, async (ctx) => {
    ctx.body = await billing.usage(partnerId(ctx));
  });

  router.post(
    '/partners/subscription/checkout-session',
    requirePartner,
    validate({ query: checkoutSessionQuery }),
    async (ctx) => {
      const { plan_id } = query(ctx, checkoutSessionQuery);
      ctx.body = await billing.checkoutSession(partnerId(ctx), plan_id, origin(ctx));
    },
  );

  router.post('/partners/subscription/portal-session', requirePartner, async (ctx) => {
    ctx.body = await billing.portalSession(partnerId(ctx));
  });

  router.get(
    '/partners/subscription/checkout-success',
    requirePartner,
    validate({ query: checkoutSuccessQuery }),
    async (ctx) => {
      ctx.body = await billing.checkoutSuccess(partnerId(ctx), query(ctx, checkoutSuccessQuery).session_id);
    },
  );

  router.post('/stripe/webhook', async (ctx) => {
    const body = await rawBody(ctx);
    ctx.body = await billing.handleStripeWebhook(body, ctx.get('Stripe-Signature') || undefined);
  });

  return router;
}
