import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type * as v from 'valibot';
import {
  forgotPasswordBody,
  messageSchema,
  partnerEmailVerifiedSchema,
  partnerLoginResponseSchema,
  partnerProfileSchema,
  tokenValidationSchema,
  resetPasswordBody,
  verifyEmailBody,
  partnerLoginBody,
  partnerProfileBody,
  partnerRegisterBody,
  validateTokenBody,
} from '@attestly/contracts';
import type { Session } from '../../../db/models/index';
import { sandboxOnly, type PartnerPrincipal } from '../api-keys/middleware';
import { rateLimit } from '../../../middleware/rate-limit';
import { validate } from '../../../middleware/validate';
import { describeRoute, ok } from '../../../middleware/describe';
import type { RateLimiter } from '../../shared/rate-limit/service';
import type { SiteService } from '../sites/service';
import type { PartnerService } from './service';
import { origin } from '../../../lib/request-origin';
import { RESET_REQUESTED } from './account';
import { presentPartner } from './presenters';

const minute = 60_000;
const body = <T extends v.GenericSchema>(ctx: Context, _schema: T) =>
  ctx.state.input.body as v.InferOutput<T>;
/** The partner a call speaks for: from an API key or partner session (requirePartnerCaller) or a session. */
export const partnerId = (ctx: Context) =>
  (ctx.state.partner as PartnerPrincipal | undefined)?.partnerId ?? (ctx.state.session as Session).subject_id;

/** What these routes take from the app (services.ts builds it and passes it in). */
export type PartnerRoutesServices = {
  partners: PartnerService;
  sites: SiteService;
  limiter: RateLimiter;
  requirePartner: Middleware;
  requirePartnerOrApiKey: Middleware;
};

/** spec 01 §7 "Partner": accounts, profile and token validation. Sites are in modules/partners/sites. */
export function partnerRoutes(services: PartnerRoutesServices): Router {
  const { partners, sites, limiter, requirePartner, requirePartnerOrApiKey } = services;
  const router = new Router();

  router.post(
    '/partners/register',
    describeRoute({
      tag: 'Partners',
      summary: 'Create a partner account',
      description:
        'The answer is the same whether or not the address is already registered; its owner is told by mail.',
      responses: { 201: ok('Account created', messageSchema) },
    }),
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
    describeRoute({
      tag: 'Partners',
      summary: 'Sign in as a partner',
      description:
        'Returns an opaque bearer token (prefix `atp_`). Repeated failures lock the account for a while; unknown addresses behave exactly alike.',
      responses: { 200: ok('Signed in', partnerLoginResponseSchema) },
    }),
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

  router.post(
    '/partners/logout',
    describeRoute({
      tag: 'Partners',
      summary: 'Sign out',
      responses: { 204: ok('Session ended') },
    }),
    requirePartner,
    async (ctx) => {
      await partners.logout(ctx.state.session as Session, origin(ctx));
      ctx.status = 204;
    },
  );

  router.get(
    '/partners/profile',
    describeRoute({
      tag: 'Partners',
      summary: 'Read your partner profile',
      responses: { 200: ok('Profile', partnerProfileSchema) },
    }),
    requirePartner,
    async (ctx) => {
      ctx.body = presentPartner(await partners.findActive(partnerId(ctx)));
    },
  );

  router.put(
    '/partners/profile',
    describeRoute({
      tag: 'Partners',
      summary: 'Update your partner profile',
      responses: { 200: ok('Updated profile', partnerProfileSchema) },
    }),
    requirePartner,
    validate({ body: partnerProfileBody }),
    async (ctx) => {
      ctx.body = presentPartner(
        await partners.updateProfile(partnerId(ctx), body(ctx, partnerProfileBody), origin(ctx)),
      );
    },
  );

  router.post(
    '/partners/send-email-verification',
    describeRoute({
      tag: 'Partners',
      summary: 'Email a verification link to the partner address',
      description: 'Resends are limited to a small budget per address.',
      limited: true,
      responses: { 200: ok('Mail sent', messageSchema) },
    }),
    requirePartner,
    async (ctx) => {
      await partners.requestVerification(partnerId(ctx), origin(ctx));
      ctx.body = { message: 'Verification email sent. Please check your inbox.' };
    },
  );

  router.post(
    '/partners/verify-email',
    describeRoute({
      tag: 'Partners',
      summary: 'Confirm the partner email address',
      description:
        'The token comes from the link in the verification mail. A partner waiting for verification becomes active.',
      responses: { 200: ok('Verified, with the updated profile', partnerEmailVerifiedSchema) },
    }),
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
    describeRoute({
      tag: 'Partners',
      summary: 'Mail a partner password reset link',
      description: 'Always answers 202, so it cannot be used to find out who has an account.',
      responses: { 202: ok('Accepted', messageSchema) },
    }),
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
    describeRoute({
      tag: 'Partners',
      summary: 'Set a new partner password with a reset link',
      description: 'Single use; signs out every session of the account and lifts the sign-in lockout.',
      responses: { 200: ok('Password reset', messageSchema) },
    }),
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
    describeRoute({
      tag: 'Partners',
      summary: 'Check an access token',
      description:
        "RFC 7662 introspection semantics, for tokens of your own sites only: anyone else's token is reported as inactive. Takes a partner session or an API key; a sandbox key sees only your sandbox sites' tokens (a live site's token is inactive to it).",
      responses: { 200: ok('Whether the token is active and what it grants', tokenValidationSchema) },
    }),
    requirePartnerOrApiKey,
    rateLimit(limiter, { name: 'validate-token:partner', limit: 600, windowMs: minute }, partnerId),
    validate({ body: validateTokenBody }),
    async (ctx) => {
      ctx.body = await sites.validateToken(partnerId(ctx), body(ctx, validateTokenBody).token, {
        sandboxOnly: sandboxOnly(ctx),
      });
    },
  );

  return router;
}
