import type Router from '@koa/router';
import type { Context } from 'koa';
import type * as v from 'valibot';
import {
  consentBody,
  interactionLoginBody,
  interactionDetailsSchema,
  interactionLoginResponseSchema,
  interactionRedirectSchema,
  interactionUidParams,
  type InteractionDetails,
  type InteractionRedirect,
  type Scope,
} from '@attestly/contracts';
import { bearerToken } from '../../../middleware/auth';
import { rateLimit } from '../../../middleware/rate-limit';
import { validate } from '../../../middleware/validate';
import { ok } from '../../../middleware/describe';
import { createRouter, routes } from '../../../middleware/route';
import { AppError } from '../../../errors';
import type { RateLimiter } from '../../shared/rate-limit/service';
import { bearerAnswer, type RequestOrigin, type SessionService } from '../../shared/sessions/service';
import type { UserService } from '../accounts/service';
import { origin } from '../../../lib/request-origin';

const uidOf = (ctx: Context) => (ctx.state.input.params as v.InferOutput<typeof interactionUidParams>).uid;

/** What these routes take from the app (services.ts builds it and passes it in). */
export type OAuthInteractionRoutesServices = {
  users: UserService;
  sessions: SessionService;
  limiter: RateLimiter;
};

/** The provider's interaction steps the routes drive (oidc/interactions.ts implements them; app.ts passes them in). */
export interface OAuthInteractionSteps {
  details(ctx: Context, uid: string): Promise<InteractionDetails>;
  login(ctx: Context, uid: string, accountId: string, remember: boolean): Promise<string>;
  consent(ctx: Context, uid: string, chosenScopes: Scope[], origin: RequestOrigin): Promise<string>;
  /** A registered wallet's credential request, under the issuing policy (throws its refusal). */
  walletConsent(ctx: Context, uid: string, origin: RequestOrigin): Promise<string>;
  abort(ctx: Context, uid: string, origin: RequestOrigin): Promise<string>;
}

/**
 * JSON interaction endpoints for the SPA's /oauth/login and /oauth/consent screens (DESIGN.md §4). Each answers
 * `{redirect_to}`: the browser navigates there to resume the authorization request at the provider.
 */
export function oauthInteractionRoutes(
  services: OAuthInteractionRoutesServices,
  interactions: OAuthInteractionSteps,
): Router {
  const { users, sessions, limiter } = services;
  const router = createRouter();
  const route = routes(router, { tag: 'OAuth' });
  const uid = { params: interactionUidParams };
  const notPending = ok('No such pending request in this browser');

  route.get('/oauth/interactions/:uid', {
    summary: 'Describe a pending sign-in or consent step',
    description:
      'Bound to the browser that started the authorization request by its interaction cookie; a uid from another browser or an expired one answers 404.',
    responses: {
      200: ok('The site, the requested scopes and what you have proven', interactionDetailsSchema),
      404: notPending,
    },
    input: uid,
    handler: ({ params, ctx }) => interactions.details(ctx, params.uid),
  });

  /**
   * Sign-in inside an authorization request. A browser already signed in to Attestly sends its user token and no
   * password; otherwise the same checks as /users/login apply (shared rate limit, lockout, disabled accounts) and
   * the answer also carries the new session, so the SPA is signed in too.
   */
  route.post('/oauth/interactions/:uid/login', {
    summary: 'Sign in inside an authorization request',
    description:
      'With email and password (same checks and lockout as /users/login; the answer also carries a new session), or with an Attestly user bearer token and no body.',
    responses: {
      200: ok(
        'Where to continue, plus the new session when a password was used',
        interactionLoginResponseSchema,
      ),
      404: notPending,
    },
    guards: [
      validate(uid),
      rateLimit(
        limiter,
        { name: 'login:ip', limit: 30, windowMs: 60_000 },
        (ctx) => ctx.ip,
        'Too many sign-in attempts. Please wait a minute and try again.',
      ),
      async (ctx, next) => {
        const token = bearerToken(ctx.get('Authorization'));
        const body = ctx.request.body as Record<string, unknown> | undefined;
        if (token && !body?.email && !body?.password) {
          const session = await sessions.authenticate(token, ['user']);
          if (!session)
            throw new AppError(401, 'auth.invalid_token', 'Your session has expired. Please sign in again.');
          await users.findActiveUser(session.subject_id);
          const redirect: InteractionRedirect = {
            // The provider session lasts as the Attestly session does: persistent only if that one was remembered.
            redirect_to: await interactions.login(ctx, uidOf(ctx), session.subject_id, session.remember),
          };
          ctx.body = redirect;
          return;
        }
        await next();
      },
    ],
    input: { params: interactionUidParams, body: interactionLoginBody },
    handler: async ({ params, body, ctx }) => {
      const signedIn = await users.login(body, origin(ctx));
      const redirectTo = await interactions.login(ctx, params.uid, signedIn.user.id, body.rememberMe);
      return {
        redirect_to: redirectTo,
        user: await users.profileOf(signedIn.user),
        ...bearerAnswer(signedIn),
      };
    },
  });

  route.post('/oauth/interactions/:uid/consent', {
    summary: 'Grant the site the chosen scopes',
    description: '`basic_info` must be among them. Consent is remembered per site and scope set.',
    responses: { 200: ok('Where to continue', interactionRedirectSchema), 404: notPending },
    input: { params: interactionUidParams, body: consentBody },
    handler: async ({ params, body, ctx }): Promise<InteractionRedirect> => ({
      redirect_to: await interactions.consent(ctx, params.uid, body.scopes, origin(ctx)),
    }),
  });

  route.post('/oauth/interactions/:uid/wallet-consent', {
    summary: 'Let a registered wallet receive the requested credentials',
    description:
      'For an OpenID4VCI authorization request from a wallet the operator registered: grants it the credential configurations it asked for. 403 with the reason when the issuing policy refuses this user (as for offers).',
    responses: {
      200: ok('Where to continue', interactionRedirectSchema),
      403: ok('No current age verification of an accepted kind'),
      404: ok('No such pending wallet request in this browser'),
    },
    input: uid,
    handler: async ({ params, ctx }): Promise<InteractionRedirect> => ({
      redirect_to: await interactions.walletConsent(ctx, params.uid, origin(ctx)),
    }),
  });

  route.post('/oauth/interactions/:uid/abort', {
    summary: 'Deny the request',
    description: 'The site receives `access_denied` ("User denied the request").',
    responses: { 200: ok('Where to continue', interactionRedirectSchema), 404: notPending },
    input: uid,
    handler: async ({ params, ctx }): Promise<InteractionRedirect> => ({
      redirect_to: await interactions.abort(ctx, params.uid, origin(ctx)),
    }),
  });

  return router;
}
