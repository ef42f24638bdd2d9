/**
 * Side navigation of spec 01 §2 "Shared header and navigation". Partner paths are typed as plain strings: the
 * partner portal's routes are added by its own feature and resolve through the same router.
 */
export interface NavItem {
  to: string;
  label: string;
}

export const USER_NAV: NavItem[] = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/profile', label: 'Profile' },
  { to: '/verification', label: 'Verification' },
  { to: '/tokens', label: 'Connected sites' },
  { to: '/security', label: 'Security' },
];

/** spec 01 §2's four entries. */
export const PARTNER_NAV: NavItem[] = [
  { to: '/partner/dashboard', label: 'Dashboard' },
  { to: '/partner/management', label: 'Management' },
  { to: '/partner/integration', label: 'Integration' },
  { to: '/partner/audit-logs', label: 'Audit Logs' },
];

/**
 * Every other section of the portal (issue 25 item 13): before, plans, subscription, webhooks and the demo could
 * only be reached through links inside other pages.
 */
export const PARTNER_SETUP_NAV: NavItem[] = [
  { to: '/partner/sites', label: 'Sites' },
  { to: '/partner/api-keys', label: 'API Keys' },
  { to: '/partner/webhooks', label: 'Webhooks' },
  { to: '/partner/demo', label: 'Demo' },
];
export const PARTNER_BILLING_NAV: NavItem[] = [
  { to: '/partner/plans', label: 'Plans' },
  { to: '/partner/subscription', label: 'Subscription' },
];

/** Partner mode: the path is in the partner portal, or a partner is signed in. */
export function isPartnerMode(pathname: string, partnerSignedIn: boolean): boolean {
  return pathname.startsWith('/partner/') || partnerSignedIn;
}

export interface NavSection {
  title: string | null;
  items: NavItem[];
}

/** The sections to show; a user profile with is_partner adds a 'User Account' section of user links. */
export function navSections(options: {
  pathname: string;
  partnerSignedIn: boolean;
  isPartner: boolean;
}): NavSection[] {
  if (!isPartnerMode(options.pathname, options.partnerSignedIn)) return [{ title: null, items: USER_NAV }];
  const sections: NavSection[] = [
    { title: null, items: PARTNER_NAV },
    { title: 'Set up', items: PARTNER_SETUP_NAV },
    { title: 'Billing', items: PARTNER_BILLING_NAV },
  ];
  if (options.isPartner) sections.push({ title: 'User Account', items: USER_NAV });
  return sections;
}

/**
 * Where sign-out leads (spec 01 §2): partners to /partner/login; users to /login from protected user pages and to /
 * otherwise.
 */
export function signOutDestination(pathname: string, kind: 'user' | 'partner'): string {
  if (kind === 'partner') return '/partner/login';
  return USER_NAV.some((item) => pathname === item.to || pathname.startsWith(`${item.to}/`)) ? '/login' : '/';
}
