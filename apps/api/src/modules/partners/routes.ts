import Router from '@koa/router';
import type { Context } from 'koa';
import type * as v from 'valibot';
import {
  forgotPasswordBody,
  resetPasswordBody,
  verifyEmailBody,
  partnerLoginBody,
  partnerProfileBody,
  partnerRegisterBody,
  validateTokenBody,
} from '@attestly/contracts';
import type { Session } from '../../db/models';
import type { PartnerPrincipal } from '../api-keys/middleware';
import { rateLimit } from '../../middleware/rate-limit';
import { validate } from '../../middleware/validate';
import type { AppServices } from '../../services';
import { origin } from '../users/routes';
import { RESET_REQUESTED } from './account';
import { presentPartner } from './presenters';

const minute = 60_000;
const body = <T extends v.GenericSchema>(ctx: Context, _schema: T) =>
  ctx.state.input.body as v.InferOutput<T>;
/** The partner a call speaks for: from an API key or partner session (requirePartnerCaller) or a session. */
export const partnerId = (ctx: Context) =>
  (ctx.state.partner as PartnerPrincipal | undefined)?.partnerId ?? (ctx.state.session as Session).subject_id;

/** spec 01 §7 "Partner": accounts, profile and token validation. Sites are in modules/sites. */
export function partnerRoutes(services: AppServices): Router {
  const { partners, sites, limiter, requirePartner, requirePartnerOrApiKey } = services;
  const router = new Router();

  router.post(
    '/partners/register',
    rateLimit(
      limiter,
      { name: 'partner-register:ip', limit: 10, windowMs: 60 * minute },
      (ctx) => ctx.ip,
      'Too many registrations from this address. Please try again later.',
    ),
    validate({ body: partnerRegisterBody }),
    async (ctx) => {
      await partners.register(body(ctx, partnerRegisterBody), origin(ctx));
      ctx.status = 201;
      ctx.body = { message: 'Registration successful! Please sign in.' };
    },
  );

  router.post(
    '/partners/login',
    rateLimit(
      limiter,
      { name: 'partner-login:ip', limit: 30, windowMs: minute },
      (ctx) => ctx.ip,
      'Too many sign-in attempts. Please wait a minute and try again.',
    ),
    validate({ body: partnerLoginBody }),
    async (ctx) => {
      const { partner, token, session } = await partners.login(body(ctx, partnerLoginBody), origin(ctx));
      ctx.body = {
        partner: presentPartner(partner),
        access_token: token,
        token_type: 'Bearer',
        expires_at: session.expires_at.toISOString(),
      };
    },
  );

  router.post('/partners/logout', requirePartner, async (ctx) => {
    await partners.logout(ctx.state.session as Session, origin(ctx));
    ctx.status = 204;
  });

  router.get('/partners/profile', requirePartner, async (ctx) => {
    ctx.body = presentPartner(await partners.findActive(partnerId(ctx)));
  });

  router.put('/partners/profile', requirePartner, validate({ body: partnerProfileBody }), async (ctx) => {
    ctx.body = presentPartner(
      await partners.updateProfile(partnerId(ctx), body(ctx, partnerProfileBody), origin(ctx)),
    );
  });

  router.post('/partners/send-email-verification', requirePartner, async (ctx) => {
    await partners.requestVerification(partnerId(ctx), origin(ctx));
    ctx.body = { message: 'Verification email sent. Please check your inbox.' };
  });

  router.post(
    '/partners/verify-email',
    rateLimit(
      limiter,
      { name: 'partner-verify-email:ip', limit: 30, windowMs: 60 * minute },
      (ctx) => ctx.ip,
    ),
    validate({ body: verifyEmailBody }),
    async (ctx) => {
      const partner = await partners.verifyEmail(body(ctx, verifyEmailBody).token, origin(ctx));
      ctx.body = {
        message:
          partner.status === 'active'
            ? 'Your email address is verified and your partner account is active.'
            : 'Your email address is verified.',
        partner: presentPartner(partner),
      };
    },
  );

  router.post(
    '/partners/forgot-password',
    rateLimit(
      limiter,
      { name: 'partner-forgot-password:ip', limit: 20, windowMs: 60 * minute },
      (ctx) => ctx.ip,
    ),
    validate({ body: forgotPasswordBody }),
    async (ctx) => {
      await partners.forgotPassword(body(ctx, forgotPasswordBody).email, origin(ctx));
      ctx.status = 202;
      ctx.body = { message: RESET_REQUESTED };
    },
  );

  router.post(
    '/partners/reset-password',
    rateLimit(
      limiter,
      { name: 'partner-reset-password:ip', limit: 30, windowMs: 60 * minute },
      (ctx) => ctx.ip,
    ),
    validate({ body: resetPasswordBody }),
    async (ctx) => {
      const input = body(ctx, resetPasswordBody);
      await partners.resetPassword(input.token, input.new_password, origin(ctx));
      ctx.body = { message: 'Your password has been reset. Please sign in.' };
    },
  );

  router.post(
    '/partners/validate-token',
    requirePartnerOrApiKey,
    rateLimit(limiter, { name: 'validate-token:partner', limit: 600, windowMs: minute }, partnerId),
    validate({ body: validateTokenBody }),
    async (ctx) => {
      ctx.body = await sites.validateToken(partnerId(ctx), body(ctx, validateTokenBody).token);
    },
  );

  return router;
}
