import type Router from '@koa/router';
import type { Middleware } from 'koa';
import * as v from 'valibot';
import { credentialOfferSchema, walletOfferBody, walletOfferSchema } from '@attestly/contracts';
import { ok } from '../../../middleware/describe';
import { createRouter, NO_STORE, routes } from '../../../middleware/route';
import type { OfferService } from './offers';

const offerTokenParams = v.object({
  token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{40,1400}$/, 'This credential offer has expired')),
});

export interface WalletRouteDeps {
  offers: OfferService;
  /** A signed-in user (puts the session on ctx.state.session). */
  requireUser: Middleware;
  /** Caps offers per user: each makes a code and a grant. */
  offerLimit: Middleware;
}

const originOf = (ctx: Parameters<Middleware>[0]) => ({
  ip: ctx.ip || null,
  userAgent: ctx.get('User-Agent') || null,
});

/** The user area's "Add to wallet" (issue 24 item 2) and the offer a wallet fetches by reference. */
export function walletRoutes({ offers, requireUser, offerLimit }: WalletRouteDeps): Router {
  const router = createRouter();

  const route = routes(router, { tag: 'Wallet' });

  route.post('/wallet/offers', {
    summary: 'Offer an age credential to your wallet',
    description:
      'A one-time OpenID4VCI credential offer (pre-authorized code, ten minutes) for the proof of age you hold: both formats (ISO mdoc `proof_of_age`, SD-JWT VC `age_sd_jwt`). With `same_device: false` (the default, for a QR code) the wallet also asks for the six-digit `tx_code` shown here. 403 with the reason when your age is not verified, or was verified only in a way wallet credentials do not accept.',
    responses: {
      200: ok(
        'The offer: link, QR code, transaction code and what the credentials will say',
        walletOfferSchema,
      ),
      403: ok('No current age verification of an accepted kind'),
    },
    guards: [requireUser, offerLimit],
    input: { body: walletOfferBody },
    headers: NO_STORE,
    handler: ({ body, ctx }) => {
      const session = ctx.state.session as { subject_id: string };
      return offers.create(session.subject_id, { sameDevice: body.same_device }, originOf(ctx));
    },
  });

  route.get('/wallet/credential-offers/:token', {
    summary: 'The credential offer a wallet fetches',
    description:
      'The `credential_offer_uri` target (OpenID4VCI §4.1.3): the credential issuer, the configurations and the pre-authorized code grant. 404 once the offer has lapsed.',
    responses: {
      200: ok('The credential offer', credentialOfferSchema),
      404: ok('Expired or unknown offer'),
    },
    input: { params: offerTokenParams },
    headers: NO_STORE,
    handler: ({ params }) => offers.resolve(params.token),
  });

  return router;
}
