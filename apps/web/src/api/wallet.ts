import type { WalletOffer, WalletPresentation, WalletPresentationStatus } from '@attestly/contracts';
import { apiFetch } from './client';
import { interactionStep } from './oauth';

/** Wallet credentials (issue 24): offers from the user area, and presentations on the sign-in screen. */
export const walletApi = {
  /** "Add to wallet": a one-time offer; `sameDevice` skips the transaction code (the link opens the wallet here). */
  createOffer: (sameDevice: boolean) =>
    apiFetch<WalletOffer>('/wallet/offers', {
      method: 'POST',
      body: { same_device: sameDevice },
      auth: 'user',
    }),
  startPresentation: (uid: string) => interactionStep<WalletPresentation>(uid, 'wallet'),
  presentationStatus: (uid: string, signal?: AbortSignal) =>
    apiFetch<WalletPresentationStatus>(`/oauth/interactions/${encodeURIComponent(uid)}/wallet`, {
      auth: 'none',
      signal,
    }),
  finishPresentation: (uid: string, responseCode: string | null) =>
    interactionStep(uid, 'wallet/finish', responseCode ? { response_code: responseCode } : {}),
};

/** A server-made SVG (QR code) as an image source: no markup of ours goes into the page. */
export const svgImage = (svg: string) => `data:image/svg+xml;base64,${btoa(svg)}`;
