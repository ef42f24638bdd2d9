import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { errorEnvelopeSchema, partnerAgeAnswerSchema, partnerVerifyAgeBody } from '@attestly/contracts';
import { rateLimit } from '../../../middleware/rate-limit';
import type { PartnerPrincipal } from '../api-keys/middleware';
import { ok } from '../../../middleware/describe';
import { createRouter, routes } from '../../../middleware/route';
import type { RateLimiter } from '../../shared/rate-limit/service';
import { createPartnerAgeCheck, type AgeCheckDeps } from './service';

/** What the route needs: the shared deps it reads, the partner guard (session or API key) and the limiter. */
export interface AgeCheckRouteDeps extends AgeCheckDeps {
  requirePartnerOrApiKey: Middleware;
  limiter: RateLimiter;
}

/** POST /partners/verify-age: the SDK's `verifyAge` (spec 01 §1 quick start). */
export function partnerAgeCheckRoutes(deps: AgeCheckRouteDeps): Router {
  const ageCheck = createPartnerAgeCheck(deps);
  const router = createRouter();
  const caller = (ctx: { state: Record<string, unknown> }) => ctx.state.partner as PartnerPrincipal;
  routes(router, { tag: 'Partner insights' }).post('/partners/verify-age', {
    summary: 'Is this user of your sites old enough?',
    description:
      '`user_id` is the pairwise subject (`sub`) your sites received for the user; `age_threshold` 12, 16, 18 or 21 (default 18); `method` (`credit_card`, `facial_recognition`, `document`) asks whether that method proved it. Answers only about users with a live authorization to your sites that includes an age scope at least that high; `verified` is true only for a proven, unexpired age. When it is false, `verify_url` is where the user proves it. A sandbox key sees the users of sandbox sites only, a live key those of live sites. Takes an API key or a partner session.',
    limited: true,
    responses: {
      200: ok('The yes or no', partnerAgeAnswerSchema),
      403: ok('The user did not grant an age scope that high', errorEnvelopeSchema),
      404: ok('No such user among your sites’ live authorizations', errorEnvelopeSchema),
    },
    guards: [
      deps.requirePartnerOrApiKey,
      rateLimit(
        deps.limiter,
        { name: 'verify-age:partner', limit: 600, windowMs: 60_000 },
        (ctx) => caller(ctx).partnerId,
      ),
    ],
    input: { body: partnerVerifyAgeBody },
    handler: ({ body, ctx }) => {
      const principal = caller(ctx);
      return ageCheck.verifyAge({
        partnerId: principal.partnerId,
        environment: principal.environment,
        userId: body.user_id,
        threshold: body.age_threshold,
        method: body.method ?? null,
      });
    },
  });
  return router;
}
