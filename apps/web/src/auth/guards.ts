import { redirect } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import type { UserProfile } from '@attestly/contracts';
import { ApiError } from '../api/client';
import { profileQueryOptions } from '../api/users';
import { tokens } from './token-storage';

/**
 * Route guards of spec 01 §2, for layout routes' `beforeLoad`. Routes not yet built by this app (the partner portal
 * and back office) are addressed by `href`, which the router resolves like any other path.
 */

/** User guard: no token → /login; otherwise the profile is loaded (from cache when present). */
export async function requireUser(queryClient: QueryClient): Promise<{ profile: UserProfile }> {
  if (!tokens.has('user')) throw redirect({ to: '/login' });
  try {
    return { profile: await queryClient.ensureQueryData(profileQueryOptions()) };
  } catch (error) {
    // The API client has already dropped the token; the redirect keeps the navigation from landing here.
    if (error instanceof ApiError && error.status === 401) throw redirect({ to: '/login' });
    throw error;
  }
}

/** Partner-only user pages: a profile without is_partner goes to /dashboard. */
export function requirePartnerProfile(profile: UserProfile): void {
  if (!profile.is_partner) throw redirect({ to: '/dashboard' });
}

/**
 * Where a partner goes after signing in: the portal page they asked for (issue 25 item 13: deep links survive the
 * sign-in), or the dashboard. Only paths inside the portal count, never another origin (`//evil.example`) or the
 * sign-in pages themselves.
 */
export function partnerNextPath(next: string | undefined): string {
  if (!next || !next.startsWith('/partner/') || next.startsWith('//') || /[\\\s]/.test(next)) {
    return '/partner/dashboard';
  }
  const path = next.split(/[?#]/)[0]!;
  if (['/partner/login', '/partner/register', '/partner/registered'].includes(path))
    return '/partner/dashboard';
  return next;
}

/** The partner sign-in address that leads back to `next` afterwards. */
export function partnerLoginHref(next?: string): string {
  const target = partnerNextPath(next);
  return target === '/partner/dashboard'
    ? '/partner/login'
    : `/partner/login?next=${encodeURIComponent(target)}`;
}

/**
 * Partner guard: no partner token → /partner/login, carrying the page asked for (`href`, path and query) so the
 * sign-in leads back to it. The partner portal loads its profile in its own layout.
 */
export function requirePartner(href?: string): void {
  if (!tokens.has('partner')) throw redirect({ href: partnerLoginHref(href) });
}

/** Guest-only guard for /login and /register: a signed-in user goes to /dashboard. */
export function guestOnly(): void {
  if (tokens.has('user')) throw redirect({ to: '/dashboard' });
}

/**
 * Guest-only guard for /partner/login and /partner/register: a signed-in partner goes on to the page the sign-in
 * was for (`next`), else /partner/dashboard.
 */
export function partnerGuestOnly(next?: string): void {
  if (tokens.has('partner')) throw redirect({ href: partnerNextPath(next) });
}
