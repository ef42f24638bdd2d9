import { queryOptions } from '@tanstack/react-query';
import type { InteractionDetails, InteractionRedirect, LoginResponse } from '@attestly/contracts';
import { apiFetch } from './client';

/**
 * The provider's interaction API behind /oauth/login and /oauth/consent (DESIGN.md §4). The browser's provider
 * cookie binds each step to the tab that started the request, so these calls run same-origin with cookies.
 */
export const interactionQueryOptions = (uid: string) =>
  queryOptions({
    queryKey: ['oauth', 'interaction', uid],
    queryFn: ({ signal }) =>
      apiFetch<InteractionDetails>(`/oauth/interactions/${encodeURIComponent(uid)}`, {
        auth: 'none',
        signal,
      }),
    retry: false,
    staleTime: Infinity,
  });

type InteractionLoginAnswer = InteractionRedirect & Partial<LoginResponse>;

export const oauthApi = {
  /** Signs in with email and password (same rules as /login); the answer also signs the SPA in. */
  login: (uid: string, body: { email: string; password: string; rememberMe?: boolean }) =>
    apiFetch<InteractionLoginAnswer>(`/oauth/interactions/${encodeURIComponent(uid)}/login`, {
      method: 'POST',
      body,
      auth: 'none',
    }),
  /** Continues with the Attestly session this browser already has. */
  continueAsUser: (uid: string) =>
    apiFetch<InteractionRedirect>(`/oauth/interactions/${encodeURIComponent(uid)}/login`, {
      method: 'POST',
      body: {},
      auth: 'user',
    }),
  consent: (uid: string, scopes: string[]) =>
    apiFetch<InteractionRedirect>(`/oauth/interactions/${encodeURIComponent(uid)}/consent`, {
      method: 'POST',
      body: { scopes },
      auth: 'none',
    }),
  /** A registered wallet's credential request (OpenID4VCI authorization code flow): 403 with the policy's reason. */
  walletConsent: (uid: string) =>
    apiFetch<InteractionRedirect>(`/oauth/interactions/${encodeURIComponent(uid)}/wallet-consent`, {
      method: 'POST',
      body: {},
      auth: 'none',
    }),
  abort: (uid: string) =>
    apiFetch<InteractionRedirect>(`/oauth/interactions/${encodeURIComponent(uid)}/abort`, {
      method: 'POST',
      body: {},
      auth: 'none',
    }),
};
