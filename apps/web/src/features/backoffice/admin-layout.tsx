import { useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useLocation, useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { adminProfile, adminSignOut } from '../../auth/admin-session';
import { useHasToken } from '../../auth/session';
import { Brand } from '../../components/layout/brand';
import { StickyHeader } from '../../components/layout/sticky-header';
import { Button } from '../../components/ui/button';
import { ToastRegion } from '../../components/ui/toaster';

/** spec 02 §2 "Admin layout": the sidebar's links, Dashboard matching /backoffice exactly. */
export const ADMIN_NAV = [
  { to: '/backoffice', label: 'Dashboard', exact: true },
  { to: '/backoffice/partners', label: 'Partners', exact: false },
  { to: '/backoffice/users', label: 'Users', exact: false },
  { to: '/backoffice/verifications', label: 'Verifications', exact: false },
  { to: '/backoffice/tokens', label: 'Tokens & OAuth', exact: false },
  { to: '/backoffice/audit', label: 'Audit Logs', exact: false },
] as const;

/**
 * The back office's frame: sidebar (a toggled panel below the md breakpoint), the administrator's e-mail with a
 * "2FA Enabled" note, and sign-out. When the admin token disappears (a 401 anywhere, another tab signing out) the
 * visitor goes to /backoffice/login.
 */
export function AdminLayout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const pathname = useLocation({ select: (location) => location.pathname });
  const signedIn = useHasToken('admin');
  const profile = adminProfile();
  const [menuOpen, setMenuOpen] = useState(false);
  const sidebarId = useId();

  useEffect(() => {
    if (!signedIn) void navigate({ to: '/backoffice/login', replace: true });
  }, [signedIn, navigate]);
  useEffect(() => setMenuOpen(false), [pathname]);

  const signOut = async () => {
    await adminSignOut(queryClient);
    await navigate({ to: '/backoffice/login', replace: true });
  };

  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <StickyHeader>
        <div className="flex h-16 items-center justify-between gap-3 px-4 sm:px-6">
          <div className="flex items-center gap-3">
            <button
              type="button"
              className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 md:hidden"
              aria-expanded={menuOpen}
              aria-controls={sidebarId}
              onClick={() => setMenuOpen((value) => !value)}
            >
              Menu
            </button>
            <Brand />
            <span className="hidden rounded bg-slate-900 px-2 py-0.5 text-xs font-semibold text-white sm:inline">
              Back office
            </span>
          </div>
          <div className="flex min-w-0 items-center gap-3">
            <div className="hidden min-w-0 text-right sm:block">
              <p className="truncate text-sm font-medium text-slate-900" data-testid="admin-email">
                {profile?.email ?? 'Administrator'}
              </p>
              {profile?.totp_enabled ? <p className="text-xs text-emerald-800">2FA Enabled</p> : null}
            </div>
            <Button variant="secondary" onClick={() => void signOut()}>
              Sign out
            </Button>
          </div>
        </div>
      </StickyHeader>
      <ToastRegion maxWidth="max-w-none" />
      <div className="flex w-full flex-1 flex-col md:flex-row">
        <nav
          id={sidebarId}
          aria-label="Back office"
          className={`${menuOpen ? 'block' : 'hidden'} border-b border-slate-200 bg-white px-3 py-3 md:block md:w-56 md:shrink-0 md:border-r md:border-b-0 md:py-6`}
        >
          {/* Two lines' height from the start: the links below stay put when the profile arrives (a tap aimed at one
              link landed on the one above it once the "2FA Enabled" line appeared). */}
          <div className="mb-3 min-h-9 px-3 sm:hidden">
            <p className="truncate text-sm font-medium text-slate-900">{profile?.email ?? 'Administrator'}</p>
            {profile?.totp_enabled ? <p className="text-xs text-emerald-800">2FA Enabled</p> : null}
          </div>
          <ul className="flex flex-col gap-1">
            {ADMIN_NAV.map((item) => (
              <li key={item.to}>
                <Link
                  to={item.to}
                  className="block rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                  activeProps={{ className: 'bg-indigo-50 text-indigo-800', 'aria-current': 'page' }}
                  activeOptions={{ exact: item.exact }}
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
