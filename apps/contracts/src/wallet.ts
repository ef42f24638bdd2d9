import * as v from 'valibot';

/** Wallet credentials (issue 24): the user area's "Add to wallet", and "Use a wallet" on the sign-in screen. */

/** POST /api/v1/wallet/offers. Another device (QR code) gets a transaction code; the same device does not need one. */
export const walletOfferBody = v.object({
  same_device: v.optional(v.boolean('same_device must be true or false'), false),
});
export type WalletOfferBody = v.InferOutput<typeof walletOfferBody>;

export const walletOfferSchema = v.object({
  /** Where the wallet fetches the offer (OID4VCI §4.1.3): lives minutes, its code is single-use. */
  credential_offer_uri: v.string(),
  /** `openid-credential-offer://?credential_offer_uri=…`, the same-device link and the QR code's content. */
  offer_url: v.string(),
  /** The QR code of offer_url as an SVG document. */
  qr_svg: v.string(),
  /** Shown to the user, typed into the wallet (cross-device offers only). */
  tx_code: v.nullable(v.string()),
  expires_at: v.string(),
  credential_configuration_ids: v.array(v.string()),
  /** The last day credentials issued from this offer are valid (YYYY-MM-DD). */
  credentials_valid_until: v.string(),
  /** What the credentials say: e.g. {"18": true, "21": false}. */
  age_over: v.record(v.string(), v.boolean()),
});
export type WalletOffer = v.InferOutput<typeof walletOfferSchema>;

/** The offer a wallet fetches by reference (OID4VCI §4.1.1). */
export const credentialOfferSchema = v.object({
  credential_issuer: v.string(),
  credential_configuration_ids: v.array(v.string()),
  grants: v.record(v.string(), v.record(v.string(), v.unknown())),
});

/** POST /api/v1/oauth/interactions/:uid/wallet: an OpenID4VP request for the sign-in screen. */
export const walletPresentationSchema = v.object({
  /** `openid4vp://?client_id=…&request_uri=…` for a wallet on this device. */
  wallet_url: v.string(),
  /** The same request as a QR code (SVG) for a wallet on another device. */
  qr_svg: v.string(),
  /** Poll this (GET) until `status` is answered, then follow `redirect_to`. */
  status_url: v.string(),
  expires_at: v.string(),
});
export type WalletPresentation = v.InferOutput<typeof walletPresentationSchema>;

export const walletPresentationStatusSchema = v.object({
  status: v.picklist(['pending', 'answered', 'refused', 'expired']),
  /** Once answered: where the browser continues the sign-in. */
  redirect_to: v.nullable(v.string()),
  /** Once refused: the one message every refusal gets. */
  detail: v.nullable(v.string()),
  /** The site named the wallet path in `acr_values`: the sign-in screen puts it first. */
  wallet_requested: v.boolean(),
});
export type WalletPresentationStatus = v.InferOutput<typeof walletPresentationStatusSchema>;

/** The constant answer to every refused presentation; the reason goes to the server log only. */
export const WALLET_PRESENTATION_REFUSED = 'The wallet presentation was not accepted.';
