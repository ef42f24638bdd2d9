import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import {
  API_BASE_PATH,
  checkoutSessionQuery,
  checkoutSessionSchema,
  checkoutSuccessQuery,
  checkoutSuccessSchema,
  planListSchema,
  portalSessionSchema,
  stripeWebhookAnswerSchema,
  subscriptionSchema,
} from '@attestly/contracts';
import { AppError } from '../../../errors';
import { ok } from '../../../middleware/describe';
import { createRouter, routes } from '../../../middleware/route';
import type { BillingService } from './service';
import { partnerId } from '../accounts/routes';
import { origin } from '../../../lib/request-origin';

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

/** What these routes take from the app (services.ts builds it and passes it in). */
export type BillingRoutesServices = { billing: BillingService; requirePartner: Middleware };

/** spec 01 §7 "Partner": plans, usage, Stripe Checkout and the customer portal; Stripe's own webhook. */
export function billingRoutes(services: BillingRoutesServices): Router {
  const { billing, requirePartner } = services;
  const router = createRouter();
  const route = routes(router, { tag: 'Billing' });

  route.get('/partners/subscription/plans', {
    summary: 'List the plans',
    description: 'Public: quotas, API rate limits, prices (USD per month) and features.',
    responses: { 200: ok('Plans', planListSchema) },
    handler: () => ({ data: billing.plans() }),
  });

  route.get('/partners/subscription/usage', {
    summary: 'Your plan, subscription and usage this month',
    responses: { 200: ok('Subscription and usage', subscriptionSchema) },
    guards: [requirePartner],
    handler: ({ ctx }) => billing.usage(partnerId(ctx)),
  });

  route.post('/partners/subscription/checkout-session', {
    summary: 'Start a Stripe Checkout for a plan',
    description: 'Answers 503 while billing (Stripe) is not configured; operators then assign plans.',
    responses: {
      200: ok('Where to send the browser', checkoutSessionSchema),
      409: ok('Already on this plan, the free plan, or an existing subscription (use the portal)'),
      502: ok('Stripe did not answer'),
      503: ok('Billing is not configured, or the plan has no Stripe price'),
    },
    guards: [requirePartner],
    input: { query: checkoutSessionQuery },
    handler: ({ query, ctx }) => billing.checkoutSession(partnerId(ctx), query.plan_id, origin(ctx)),
  });

  route.post('/partners/subscription/portal-session', {
    summary: 'Open the Stripe customer portal',
    responses: {
      200: ok('Where to send the browser', portalSessionSchema),
      409: ok('No paid subscription yet'),
      502: ok('Stripe did not answer'),
      503: ok('Billing is not configured'),
    },
    guards: [requirePartner],
    handler: ({ ctx }) => billing.portalSession(partnerId(ctx)),
  });

  route.get('/partners/subscription/checkout-success', {
    summary: 'Activate the plan a completed Checkout paid for',
    description: 'Idempotent on the Checkout Session id: the success page may call it more than once.',
    responses: {
      200: ok('The plan and the subscription now', checkoutSuccessSchema),
      409: ok('The payment has not been completed'),
      502: ok('Stripe did not answer'),
      503: ok('Billing is not configured'),
    },
    guards: [requirePartner],
    input: { query: checkoutSuccessQuery },
    handler: ({ query, ctx }) => billing.checkoutSuccess(partnerId(ctx), query.session_id),
  });

  route.post('/stripe/webhook', {
    summary: 'Stripe webhook',
    description:
      'Called by Stripe, not by clients: the raw body must carry a valid `Stripe-Signature` for the configured webhook secret. Each event is handled once.',
    responses: { 200: ok('Received', stripeWebhookAnswerSchema), 400: ok('Missing or invalid signature') },
    handler: async ({ ctx }) =>
      billing.handleStripeWebhook(await rawBody(ctx), ctx.get('Stripe-Signature') || undefined),
  });

  return router;
}
