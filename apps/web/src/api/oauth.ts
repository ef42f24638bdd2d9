import { queryOptions } from '@tanstack/react-query';
import type { InteractionDetails, InteractionRedirect, LoginResponse } from '@attestly/contracts';
import { apiFetch, type Auth } from './client';

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

/**
 * A step of an authorization request, `POST /oauth/interactions/:uid/<step>`. Without a user token (`auth`
 * 'none'): the provider cookie, not a token, says whose request it is.
 */
export const interactionStep = <T = InteractionRedirect>(
  uid: string,
  step: string,
  body: unknown = {},
  auth: Auth = 'none',
) => apiFetch<T>(`/oauth/interactions/${encodeURIComponent(uid)}/${step}`, { method: 'POST', body, auth });

export const oauthApi = {
  /** Signs in with email and password (same rules as /login); the answer also signs the SPA in. */
  login: (uid: string, body: { email: string; password: string; rememberMe?: boolean }) =>
    interactionStep<InteractionLoginAnswer>(uid, 'login', body),
  /** Continues with the Attestly session this browser already has. */
  continueAsUser: (uid: string) => interactionStep(uid, 'login', {}, 'user'),
  consent: (uid: string, scopes: string[]) => interactionStep(uid, 'consent', { scopes }),
  /** A registered wallet's credential request (OpenID4VCI authorization code flow): 403 with the policy's reason. */
  walletConsent: (uid: string) => interactionStep(uid, 'wallet-consent'),
  abort: (uid: string) => interactionStep(uid, 'abort'),
};
