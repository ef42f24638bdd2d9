import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
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
import { ok } from '../../../middleware/describe';
import { createRouter, confirms, routes, signOut } from '../../../middleware/route';
import type { RateLimiter } from '../../shared/rate-limit/service';
import { bearerAnswer } from '../../shared/sessions/service';
import type { SiteService } from '../sites/service';
import type { PartnerService } from './service';
import { origin } from '../../../lib/request-origin';
import { RESET_REQUESTED } from './account';
import { presentPartner } from './presenters';

const minute = 60_000;
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
  const router = createRouter();
  const route = routes(router, { tag: 'Partners' });
  const perAddress = (name: string, limit: number, windowMs: number, message?: string) =>
    rateLimit(limiter, { name: `partner-${name}:ip`, limit, windowMs }, (ctx) => ctx.ip, message);

  route.post('/partners/register', {
    summary: 'Create a partner account',
    description:
      'The answer is the same whether or not the address is already registered; its owner is told by mail.',
    responses: { 201: ok('Account created', messageSchema) },
    guards: [
      perAddress(
        'register',
        10,
        60 * minute,
        'Too many registrations from this address. Please try again later.',
      ),
    ],
    input: { body: partnerRegisterBody },
    status: 201,
    handler: confirms('Registration successful! Please sign in.', ({ body, ctx }) =>
      partners.register(body, origin(ctx)),
    ),
  });

  route.post('/partners/login', {
    summary: 'Sign in as a partner',
    description:
      'Returns an opaque bearer token (prefix `atp_`). Repeated failures lock the account for a while; unknown addresses behave exactly alike.',
    responses: { 200: ok('Signed in', partnerLoginResponseSchema) },
    guards: [
      perAddress('login', 30, minute, 'Too many sign-in attempts. Please wait a minute and try again.'),
    ],
    input: { body: partnerLoginBody },
    handler: async ({ body, ctx }) => {
      const signedIn = await partners.login(body, origin(ctx));
      return { partner: presentPartner(signedIn.partner), ...bearerAnswer(signedIn) };
    },
  });

  route.post('/partners/logout', signOut(requirePartner, partners.logout));

  route.get('/partners/profile', {
    summary: 'Read your partner profile',
    responses: { 200: ok('Profile', partnerProfileSchema) },
    guards: [requirePartner],
    handler: async ({ ctx }) => presentPartner(await partners.findActive(partnerId(ctx))),
  });

  route.put('/partners/profile', {
    summary: 'Update your partner profile',
    responses: { 200: ok('Updated profile', partnerProfileSchema) },
    guards: [requirePartner],
    input: { body: partnerProfileBody },
    handler: async ({ body, ctx }) =>
      presentPartner(await partners.updateProfile(partnerId(ctx), body, origin(ctx))),
  });

  route.post('/partners/send-email-verification', {
    summary: 'Email a verification link to the partner address',
    description: 'Resends are limited to a small budget per address.',
    limited: true,
    responses: { 200: ok('Mail sent', messageSchema) },
    guards: [requirePartner],
    handler: async ({ ctx }) => {
      await partners.requestVerification(partnerId(ctx), origin(ctx));
      return { message: 'Verification email sent. Please check your inbox.' };
    },
  });

  route.post('/partners/verify-email', {
    summary: 'Confirm the partner email address',
    description:
      'The token comes from the link in the verification mail. A partner waiting for verification becomes active.',
    responses: { 200: ok('Verified, with the updated profile', partnerEmailVerifiedSchema) },
    guards: [perAddress('verify-email', 30, 60 * minute)],
    input: { body: verifyEmailBody },
    handler: async ({ body, ctx }) => {
      const partner = await partners.verifyEmail(body.token, origin(ctx));
      return {
        message:
          partner.status === 'active'
            ? 'Your email address is verified and your partner account is active.'
            : 'Your email address is verified.',
        partner: presentPartner(partner),
      };
    },
  });

  route.post('/partners/forgot-password', {
    summary: 'Mail a partner password reset link',
    description: 'Always answers 202, so it cannot be used to find out who has an account.',
    responses: { 202: ok('Accepted', messageSchema) },
    guards: [perAddress('forgot-password', 20, 60 * minute)],
    input: { body: forgotPasswordBody },
    status: 202,
    handler: confirms(RESET_REQUESTED, ({ body, ctx }) => partners.forgotPassword(body.email, origin(ctx))),
  });

  route.post('/partners/reset-password', {
    summary: 'Set a new partner password with a reset link',
    description: 'Single use; signs out every session of the account and lifts the sign-in lockout.',
    responses: { 200: ok('Password reset', messageSchema) },
    guards: [perAddress('reset-password', 30, 60 * minute)],
    input: { body: resetPasswordBody },
    handler: confirms('Your password has been reset. Please sign in.', ({ body, ctx }) =>
      partners.resetPassword(body.token, body.new_password, origin(ctx)),
    ),
  });

  route.post('/partners/validate-token', {
    summary: 'Check an access token',
    description:
      "RFC 7662 introspection semantics, for tokens of your own sites only: anyone else's token is reported as inactive. Takes a partner session or an API key; a sandbox key sees only your sandbox sites' tokens (a live site's token is inactive to it).",
    responses: { 200: ok('Whether the token is active and what it grants', tokenValidationSchema) },
    guards: [
      requirePartnerOrApiKey,
      rateLimit(limiter, { name: 'validate-token:partner', limit: 600, windowMs: minute }, partnerId),
    ],
    input: { body: validateTokenBody },
    handler: ({ body, ctx }) =>
      sites.validateToken(partnerId(ctx), body.token, { sandboxOnly: sandboxOnly(ctx) }),
  });

  return router;
}
