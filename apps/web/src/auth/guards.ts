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

/** Partner guard: no partner token → /partner/login. The partner portal loads its profile in its own layout. */
export function requirePartner(): void {
  if (!tokens.has('partner')) throw redirect({ href: '/partner/login' });
}

/** Guest-only guard for /login and /register: a signed-in user goes to /dashboard. */
export function guestOnly(): void {
  if (tokens.has('user')) throw redirect({ to: '/dashboard' });
}

/** Guest-only guard for /partner/login: a signed-in partner goes to /partner/dashboard. */
export function partnerGuestOnly(): void {
  if (tokens.has('partner')) throw redirect({ href: '/partner/dashboard' });
}
