import { redirect } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { TOKEN_PREFIX, type AdminProfile, type AdminTokenResponse } from '@attestly/contracts';
import { adminAuthApi, adminKeys } from '../api/admin';
import { tokens } from './token-storage';

/**
 * Back-office sessions (spec 02 §2 "Guarding", §4 "Admin login flow"). Admin tokens live in the tab's session
 * storage only (an admin session ends with the tab as well as after 8 hours or 30 idle minutes on the server); the
 * signed-in administrator's profile is kept beside the token for the layout's header.
 */
const PROFILE_SLOT = 'adminProfile';

function sessionStore(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

export function adminProfile(): AdminProfile | null {
  try {
    const text = sessionStore()?.getItem(PROFILE_SLOT);
    return text ? (JSON.parse(text) as AdminProfile) : null;
  } catch {
    return null;
  }
}

function clearProfile(): void {
  try {
    sessionStore()?.removeItem(PROFILE_SLOT);
  } catch {
    // Nothing to clear.
  }
}

/** Stores the full admin token of verify-2fa or enable-2fa; the setup token is no longer needed (spec 02 §4). */
export function storeAdminSession(queryClient: QueryClient, answer: AdminTokenResponse): void {
  queryClient.removeQueries({ queryKey: adminKeys.all });
  tokens.clear('admin_setup');
  tokens.set('admin', answer.access_token, { remember: false, expiresAt: answer.expires_at });
  try {
    sessionStore()?.setItem(PROFILE_SLOT, JSON.stringify(answer.admin));
  } catch {
    // The header then shows no e-mail; the session itself still works.
  }
}

/** Stores the `ats_` setup token of a first sign-in (spec 02 §4, outcome 2). */
export function storeSetupToken(token: string, expiresAt: string | null): void {
  tokens.clear('admin');
  clearProfile();
  tokens.set('admin_setup', token, { remember: false, expiresAt });
}

const expired = (expiresAt: string | null, now: number) => {
  if (!expiresAt) return false;
  const time = Date.parse(expiresAt);
  return Number.isFinite(time) && time <= now;
};

/** A stored token of `kind` that is well formed and not past its expiry; anything else is removed. */
function validToken(kind: 'admin' | 'admin_setup', now = Date.now()): boolean {
  const stored = tokens.get(kind);
  if (!stored) return false;
  if (!stored.token.startsWith(TOKEN_PREFIX[kind]) || expired(stored.expiresAt, now)) {
    tokens.clear(kind);
    if (kind === 'admin') clearProfile();
    return false;
  }
  return true;
}

/**
 * The admin layout's guard: a valid admin token passes; a setup token alone goes to /backoffice/setup-2fa; no token,
 * or an expired or malformed one (removed), goes to /backoffice/login.
 */
export function requireAdmin(): void {
  if (validToken('admin')) return;
  if (validToken('admin_setup')) throw redirect({ to: '/backoffice/setup-2fa' });
  throw redirect({ to: '/backoffice/login' });
}

/** /backoffice/login: a visitor who already holds an admin token goes to /backoffice. */
export function adminGuestOnly(): void {
  if (validToken('admin')) throw redirect({ to: '/backoffice' });
}

/** /backoffice/setup-2fa: without a setup token the visitor goes to the login page. */
export function requireSetupToken(): void {
  if (!validToken('admin_setup')) throw redirect({ to: '/backoffice/login' });
}

/** Sign-out ends the server session when it can and always clears the admin slots and cached admin data. */
export async function adminSignOut(queryClient: QueryClient): Promise<void> {
  try {
    if (tokens.has('admin')) await adminAuthApi.logout();
  } catch {
    // Local sign-out is what matters here; the server session also ends on its own (idle and absolute limits).
  } finally {
    tokens.clear('admin');
    tokens.clear('admin_setup');
    clearProfile();
    queryClient.removeQueries({ queryKey: adminKeys.all });
  }
}
