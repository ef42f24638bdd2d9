import type { AccountKind } from '@attestly/contracts';

/** spec 01 §4 "Unauthorised responses": the account kind a page belongs to, from its path. */
export function accountKindForPath(pathname: string): AccountKind {
  if (pathname === '/partner' || pathname.startsWith('/partner/')) return 'partner';
  if (pathname === '/backoffice' || pathname.startsWith('/backoffice/')) return 'admin';
  return 'user';
}

/** The sign-in page of each kind (admin setup tokens come from the back-office sign-in too). */
export const LOGIN_PATHS: Record<AccountKind, string> = {
  user: '/login',
  partner: '/partner/login',
  admin: '/backoffice/login',
  admin_setup: '/backoffice/login',
};
