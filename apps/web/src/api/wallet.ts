import type {
  InteractionRedirect,
  WalletOffer,
  WalletPresentation,
  WalletPresentationStatus,
} from '@attestly/contracts';
import { apiFetch } from './client';

/** Wallet credentials (issue 24): offers from the user area, and presentations on the sign-in screen. */
export const walletApi = {
  /** "Add to wallet": a one-time offer; `sameDevice` skips the transaction code (the link opens the wallet here). */
  createOffer: (sameDevice: boolean) =>
    apiFetch<WalletOffer>('/wallet/offers', {
      method: 'POST',
      body: { same_device: sameDevice },
      auth: 'user',
    }),
  startPresentation: (uid: string) =>
    apiFetch<WalletPresentation>(`/oauth/interactions/${encodeURIComponent(uid)}/wallet`, {
      method: 'POST',
      body: {},
      auth: 'none',
    }),
  presentationStatus: (uid: string, signal?: AbortSignal) =>
    apiFetch<WalletPresentationStatus>(`/oauth/interactions/${encodeURIComponent(uid)}/wallet`, {
      auth: 'none',
      signal,
    }),
  finishPresentation: (uid: string, responseCode: string | null) =>
    apiFetch<InteractionRedirect>(`/oauth/interactions/${encodeURIComponent(uid)}/wallet/finish`, {
      method: 'POST',
      body: responseCode ? { response_code: responseCode } : {},
      auth: 'none',
    }),
};

/** A server-made SVG (QR code) as an image source: no markup of ours goes into the page. */
export const svgImage = (svg: string) => `data:image/svg+xml;base64,${btoa(svg)}`;
