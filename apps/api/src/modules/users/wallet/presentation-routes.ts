import type Router from '@koa/router';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import * as v from 'valibot';
import {
  interactionUidParams,
  interactionRedirectSchema,
  scopeAgeThreshold,
  WALLET_PRESENTATION_REFUSED,
  walletPresentationSchema,
  walletPresentationStatusSchema,
  type WalletPresentationStatus,
} from '@attestly/contracts';
import { AppError } from '../../../errors';
import { validate } from '../../../middleware/validate';
import { ok } from '../../../middleware/describe';
import { createRouter, routes } from '../../../middleware/route';
import type { PresentationService } from './presentations';

/** The acr a sign-in with a wallet carries, also how a partner asks for it (`acr_values`). */
export const WALLET_ACR = 'urn:attestly:acr:wallet';
/** Scopes a wallet presentation can answer besides the age ones: the protocol's and the (random) subject. */
const ANSWERABLE = new Set(['openid', 'basic_info']);

const startBody = v.object({
  response_mode: v.optional(v.picklist(['direct_post', 'direct_post.jwt']), 'direct_post'),
});
const finishBody = v.object({
  response_code: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{10,64}$/, 'Invalid response code'))),
});

const expired = () =>
  new AppError(
    404,
    'oauth.interaction_not_found',
    'This sign-in request has expired. Please return to the site and try again.',
  );

/**
 * "Use a wallet" on the sign-in screen (issue 24 item 5): start an OpenID4VP request for this interaction, poll
 * it, and finish the sign-in with the ephemeral account a valid presentation yields. Every step is bound to the
 * browser that started the authorization request by the provider's interaction cookie.
 */
export function presentationRoutes(
  oidc: { readonly provider: Provider },
  presentations: PresentationService,
): Router {
  const router = createRouter();
  const params = validate({ params: interactionUidParams });
  const uidOf = (ctx: Context) => (ctx.state.input.params as v.InferOutput<typeof interactionUidParams>).uid;

  async function load(ctx: Context): Promise<Interaction> {
    let interaction: Interaction;
    try {
      interaction = await oidc.provider.interactionDetails(ctx.req, ctx.res);
    } catch {
      throw expired();
    }
    if (interaction.uid !== uidOf(ctx)) throw expired();
    return interaction;
  }

  const scopesOf = (interaction: Interaction) =>
    String(interaction.params.scope ?? '')
      .split(' ')
      .filter(Boolean);
  function thresholdOf(interaction: Interaction): number {
    const thresholds = scopesOf(interaction)
      .map(scopeAgeThreshold)
      .filter((value): value is number => value !== null);
    if (!thresholds.length)
      throw new AppError(
        409,
        'wallet.no_age_request',
        'This site does not ask for an age: sign in with your account.',
      );
    return Math.max(...thresholds);
  }

  const route = routes(router, { tag: 'Wallet' });

  route.post('/oauth/interactions/:uid/wallet', {
    summary: 'Start a wallet presentation for this sign-in',
    description:
      'An OpenID4VP 1.0 request (unsigned, by value, `client_id=redirect_uri:…`, DCQL for the Attestly SD-JWT VC, the EU PID SD-JWT VC, the EU AV mdoc or the EU PID mdoc, each stating the age the site asks). `response_mode` is `direct_post` (default) or `direct_post.jwt`. 409 when the site asks no age.',
    responses: {
      200: ok('The wallet link, its QR code and where to poll', walletPresentationSchema),
      404: ok('No such pending request in this browser'),
      409: ok('The site asks no age'),
    },
    guards: [params],
    input: { params: interactionUidParams, body: startBody },
    handler: async ({ body, ctx }) => {
      const interaction = await load(ctx);
      const started = await presentations.start(
        interaction.uid,
        thresholdOf(interaction),
        body.response_mode,
      );
      ctx.set('Cache-Control', 'no-store');
      return { ...started, status_url: `/api/v1/oauth/interactions/${interaction.uid}/wallet` };
    },
  });

  route.get('/oauth/interactions/:uid/wallet', {
    summary: 'Whether the wallet has answered',
    description:
      'Polled by the sign-in screen. A refusal always reads the same; the reason goes to the server log.',
    responses: {
      200: ok('pending, answered, refused or expired', walletPresentationStatusSchema),
      404: ok('No such pending request in this browser'),
    },
    guards: [params],
    handler: async ({ ctx }) => {
      const interaction = await load(ctx);
      const status = await presentations.status(interaction.uid);
      const answer: WalletPresentationStatus = {
        status,
        redirect_to: null,
        detail: status === 'refused' ? WALLET_PRESENTATION_REFUSED : null,
        wallet_requested: String(interaction.params.acr_values ?? '')
          .split(' ')
          .includes(WALLET_ACR),
      };
      ctx.set('Cache-Control', 'no-store');
      return answer;
    },
  });

  route.post('/oauth/interactions/:uid/wallet/finish', {
    summary: 'Finish the sign-in with the presented credential',
    description:
      'Signs in with a one-time account whose subject is random and whose only claim is the proven age, and grants the site the age scopes (no other scope can be answered from a wallet). Same device: send the `response_code` the wallet brought back. Once only.',
    responses: {
      200: ok('Where to continue', interactionRedirectSchema),
      404: ok('No answered presentation for this request in this browser'),
    },
    guards: [params],
    input: { params: interactionUidParams, body: finishBody },
    handler: async ({ body, ctx }) => {
      const interaction = await load(ctx);
      const threshold = thresholdOf(interaction);
      const done = await presentations.finish(interaction.uid, body.response_code ?? null);
      if (!done) throw new AppError(404, 'wallet.presentation_not_found', WALLET_PRESENTATION_REFUSED);
      const requested = scopesOf(interaction);
      const granted = requested.filter((scope) => {
        const age = scopeAgeThreshold(scope);
        return (
          ANSWERABLE.has(scope) || (age !== null && age <= done.threshold && done.threshold === threshold)
        );
      });
      const { Grant } = oidc.provider;
      const clientId = String(interaction.params.client_id);
      const grant = new Grant({ accountId: done.accountId, clientId });
      grant.addOIDCScope(granted.join(' '));
      const rejected = requested.filter((scope) => !granted.includes(scope));
      if (rejected.length) grant.rejectOIDCScope(rejected.join(' '));
      const grantId = await grant.save();
      return {
        redirect_to: await oidc.provider.interactionResult(
          ctx.req,
          ctx.res,
          {
            login: { accountId: done.accountId, acr: WALLET_ACR, amr: ['wallet'], remember: false },
            consent: { grantId },
          },
          { mergeWithLastSubmission: false },
        ),
      };
    },
  });

  return router;
}

/** The wallet's answer at the response URI (OID4VP §8.2): 200 with where to send the browser, or one refusal. */
export async function answerPresentation(
  presentations: PresentationService,
  transaction: string,
  body: Record<string, string | undefined>,
) {
  const result = await presentations.answer(transaction, body);
  return result.ok
    ? { status: 200, body: { redirect_uri: result.redirectUri } }
    : { status: 400, body: { error: 'invalid_request', error_description: WALLET_PRESENTATION_REFUSED } };
}
