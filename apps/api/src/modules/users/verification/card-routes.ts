import type { Context, Middleware } from 'koa';
import type * as v from 'valibot';
import {
  cardCheckBody,
  cardCheckStartSchema,
  errorEnvelopeSchema,
  verificationAnswerSchema,
} from '@attestly/contracts';
import { validate } from '../../../middleware/validate';
import { ok } from '../../../middleware/describe';
import { createRouter, routes } from '../../../middleware/route';
import type { createCardVerification } from './credit-card';
import type { VerificationOrigin } from './service';

/** What the card routes need from the verification routes (routes.ts): the check, who asks, and the limiter. */
export interface CardRouteDeps {
  card: ReturnType<typeof createCardVerification>;
  requireUser: Middleware;
  userId(ctx: Context): string;
  origin(ctx: Context): VerificationOrigin;
  perUser(name: string, limit: number, message: string): Middleware;
}

/**
 * The credit-card age check's routes (issue 25 item 1; credit-card.ts). Mounted only where the operator configured
 * Stripe: otherwise the API reference does not list a method nobody can use. `finish` also serves
 * POST /users/verify with method credit_card, which answers 404 "not available" without Stripe.
 */
export function cardCheckRoutes({ card, requireUser, userId, origin, perUser }: CardRouteDeps) {
  const router = createRouter();
  const input = validate({ body: cardCheckBody });
  const decide = async (ctx: Context, body: v.InferOutput<typeof cardCheckBody>) => {
    const result = await card.finish(userId(ctx), body.setup_intent_id, origin(ctx));
    return {
      message: result.message,
      verification_id: result.verification.id,
      status: result.verification.status,
      verification: result.verification,
    };
  };
  const finish: Middleware = (ctx) =>
    input(ctx, async () => {
      const answer = await decide(ctx, ctx.state.input.body as v.InferOutput<typeof cardCheckBody>);
      ctx.status = 201;
      ctx.body = answer;
    });
  if (!card.available) return { router, finish };
  const route = routes(router, { tag: 'Verification', guards: [requireUser] });

  route.post('/users/verify/credit-card/setup', {
    summary: 'Start a credit-card age check',
    description:
      'Only where the operator configured Stripe (`GET /site-config` → `capabilities.card_check`). Creates a Stripe SetupIntent for you: Stripe.js in the page collects the card with `client_secret` and the publishable key and has the issuer confirm it (3-D Secure when the issuer asks). The card number never reaches this server. Then send the SetupIntent id to POST /users/verify/credit-card.',
    responses: {
      201: ok('Started: what Stripe.js needs', cardCheckStartSchema),
      502: ok('Stripe did not answer', errorEnvelopeSchema),
    },
    guards: [
      perUser('verify-card:user', 5, 'Too many card checks in the last hour. Please try again later.'),
    ],
    status: 201,
    handler: ({ ctx }) => card.start(userId(ctx)),
  });

  route.post('/users/verify/credit-card', {
    summary: 'Finish a credit-card age check',
    description:
      'After Stripe.js confirmed the card: the SetupIntent is read from Stripe and decided once. An issuer-confirmed credit card (funding `credit`; not debit or prepaid, which are issued to minors too), from an issuing country the operator accepts, proves 18+. Only the brand, last four digits, funding type, issuing country and a keyed fingerprint are kept.',
    responses: {
      201: ok('The decision', verificationAnswerSchema),
      404: ok('No such card check of yours', errorEnvelopeSchema),
      409: ok('Already decided, or the issuer has not confirmed the card yet', errorEnvelopeSchema),
      422: ok('Invalid fields', errorEnvelopeSchema),
      502: ok('Stripe did not answer', errorEnvelopeSchema),
    },
    input: { body: cardCheckBody },
    status: 201,
    handler: ({ body, ctx }) => decide(ctx, body),
  });
  return { router, finish };
}
