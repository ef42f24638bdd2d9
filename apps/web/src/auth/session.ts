import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { AccountKind, LoginBody } from '@attestly/contracts';
import { ApiError } from '../api/client';
import { partnerApi, partnerKeys } from '../api/partner';
import { usersApi, userKeys } from '../api/users';
import { toast } from '../lib/toast';
import { tokens } from './token-storage';

/** spec 01 §4 "Session": login success stores the token (where remember-me says) and the user. */
export async function signIn(queryClient: QueryClient, body: LoginBody) {
  const answer = await usersApi.login(body);
  tokens.set('user', answer.access_token, {
    remember: body.rememberMe ?? false,
    expiresAt: answer.expires_at,
  });
  queryClient.setQueryData(userKeys.profile(), answer.user);
  return answer;
}

/**
 * spec 01 §4: logout clears the token of that account type and always succeeds locally, even when the server call
 * fails (offline, or the session had already expired).
 */
export async function signOut(queryClient: QueryClient, kind: AccountKind = 'user'): Promise<void> {
  try {
    if (kind === 'user' && tokens.has('user')) await usersApi.logout();
    if (kind === 'partner' && tokens.has('partner')) await partnerApi.logout();
  } catch {
    // The local sign-out below is what matters to the person at this screen.
  } finally {
    tokens.clear(kind);
    queryClient.removeQueries({ queryKey: kind === 'partner' ? partnerKeys.all : userKeys.all });
  }
}

/**
 * spec 01 §4: a refresh replaces the token and keeps the remember preference; a failed one clears the session and
 * says so (the server's detail, else spec 01 §8's fallback 'Token refresh failed') instead of signing out silently.
 */
export async function refreshUserSession(queryClient: QueryClient): Promise<boolean> {
  const current = tokens.get('user');
  if (!current) return false;
  try {
    const answer = await usersApi.refresh();
    tokens.set('user', answer.access_token, { remember: current.remember, expiresAt: answer.expires_at });
    queryClient.setQueryData(userKeys.profile(), answer.user);
    return true;
  } catch (error) {
    tokens.clear('user');
    queryClient.removeQueries({ queryKey: userKeys.all });
    // A server's own message (an error envelope) is shown as it is; anything else gets the spec's fallback.
    toast.error(
      error instanceof ApiError && error.code !== 'http_error' ? error.detail : 'Token refresh failed',
    );
    return false;
  }
}

/** Refresh this long before the server-side expiry. */
export const REFRESH_MARGIN_MS = 60 * 60_000;

/** True when the stored user token expires within the margin (tokens without a known expiry are left alone). */
export function userSessionNeedsRefresh(now = Date.now()): boolean {
  const expiresAt = tokens.get('user')?.expiresAt;
  if (!expiresAt) return false;
  const time = Date.parse(expiresAt);
  return Number.isFinite(time) && time - now < REFRESH_MARGIN_MS;
}

/**
 * Keeps an open user session alive by rotating its token before it expires. Tabs that share a remembered token
 * refresh one at a time (Web Locks), each re-checking after the lock, so a second tab never presents a token the
 * first has just rotated away.
 */
export function keepUserSessionFresh(queryClient: QueryClient, intervalMs = 5 * 60_000): () => void {
  const tick = async () => {
    if (!userSessionNeedsRefresh()) return;
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    if (locks) {
      await locks.request('attestly-user-refresh', async () => {
        if (userSessionNeedsRefresh()) await refreshUserSession(queryClient);
      });
    } else {
      await refreshUserSession(queryClient);
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  return () => clearInterval(timer);
}

/** Re-renders when a kind's token appears or disappears (this tab, or another tab for remembered sessions). */
export function useHasToken(kind: AccountKind): boolean {
  return useSyncExternalStore(
    tokens.subscribe,
    () => tokens.has(kind),
    () => false,
  );
}
