import { createPortal } from 'react-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { profileQueryOptions } from '../../api/users';
import { signOut, useHasToken } from '../../auth/session';
import { ToastRegion } from '../ui/toaster';
import { Brand } from './brand';
import { navSections, signOutDestination, type NavItem } from './nav-items';
import { StickyHeader } from './sticky-header';

function NavLink({ item }: { item: NavItem }) {
  return (
    <Link
      // Partner routes are registered by the partner portal; see nav-items.ts.
      to={item.to as '/'}
      className="block rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap text-slate-700 hover:bg-slate-100 hover:text-slate-900"
      activeProps={{ className: 'bg-indigo-50 text-indigo-800', 'aria-current': 'page' }}
      activeOptions={{ exact: false }}
    >
      {item.label}
    </Link>
  );
}

/** The account menu: a disclosure button with the email and links to Profile, Settings and Sign out. */
function UserMenu({ label, onSignOut }: { label: string; onSignOut(): void }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  /** Where the open menu sits: under the button, in the viewport (the menu lives in a portal, see below). */
  const [anchor, setAnchor] = useState<{ top: number; right: number } | null>(null);

  useEffect(() => {
    if (!open) return;
    const place = () => {
      const rect = button.current?.getBoundingClientRect();
      if (rect) setAnchor({ top: rect.bottom + 8, right: window.innerWidth - rect.right });
    };
    place();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!container.current?.contains(target) && !menu.current?.contains(target)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    window.addEventListener('resize', place);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('resize', place);
    };
  }, [open]);

  const itemClass = 'block w-full rounded-md px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100';
  return (
    <div ref={container} className="relative min-w-0">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
        className="flex max-w-full items-center gap-2 rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 sm:max-w-[14rem]"
      >
        <span className="truncate">{label}</span>
        <svg viewBox="0 0 20 20" className="size-4 shrink-0" aria-hidden="true" fill="currentColor">
          <path d="M5.5 7.5L10 12l4.5-4.5" stroke="currentColor" strokeWidth="1.5" fill="none" />
        </svg>
        <span className="sr-only">Account menu</span>
      </button>
      {/*
        The open menu is rendered into <body> above the toasts (z-70 over z-60): a notification that arrives while
        the menu is open never covers Profile, Settings or Sign out. The header's own stacking context (z-40)
        would otherwise keep the menu beneath them.
      */}
      {open && anchor
        ? createPortal(
            <div
              id={menuId}
              ref={menu}
              style={{ top: anchor.top, right: anchor.right }}
              className="fixed z-[70] w-48 rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
            >
              <Link to="/profile" className={itemClass} onClick={() => setOpen(false)}>
                Profile
              </Link>
              <Link to="/security" className={itemClass} onClick={() => setOpen(false)}>
                Settings
              </Link>
              <button
                type="button"
                className={itemClass}
                onClick={() => {
                  setOpen(false);
                  onSignOut();
                }}
              >
                Sign out
              </button>
            </div>,
            document.body,
          )
        : null}
    </div>
  );
}

/**
 * The common layout of the signed-in areas (spec 01 §2): header with the account menu, side navigation in user or
 * partner mode (a horizontal strip on narrow screens), and the page.
 */
export function AppShell({
  children,
  accountLabel,
}: {
  children: ReactNode;
  /** The partner portal names the partner's e-mail or company here; user pages show the user's e-mail. */
  accountLabel?: string;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const pathname = useLocation({ select: (location) => location.pathname });
  const partnerSignedIn = useHasToken('partner');
  // Only with a user token: on a partner page a 401 from /users/profile would sign the partner out (spec 01 §4).
  const userSignedIn = useHasToken('user');
  const profile = useQuery({ ...profileQueryOptions(), enabled: userSignedIn });
  const sections = navSections({ pathname, partnerSignedIn, isPartner: profile.data?.is_partner ?? false });
  const kind = pathname.startsWith('/partner/') ? 'partner' : 'user';

  const handleSignOut = async () => {
    const destination = signOutDestination(pathname, kind);
    await signOut(queryClient, kind);
    await navigate({ href: destination, replace: true });
  };

  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <StickyHeader>
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
          <Brand to={(kind === 'partner' ? '/partner/dashboard' : '/dashboard') as '/dashboard'} />
          <UserMenu
            label={accountLabel ?? profile.data?.email ?? 'Account'}
            onSignOut={() => void handleSignOut()}
          />
        </div>
      </StickyHeader>
      <ToastRegion />
      <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col md:flex-row md:gap-6 md:px-6">
        <nav
          aria-label="Account"
          className="border-b border-slate-200 bg-white px-2 py-2 md:w-56 md:shrink-0 md:border-0 md:bg-transparent md:px-0 md:py-6"
        >
          {sections.map((section) => (
            <div key={section.title ?? 'main'} className="md:mb-4">
              {section.title ? (
                <h2 className="hidden px-3 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase md:block">
                  {section.title}
                </h2>
              ) : null}
              {/* Wraps on narrow screens: every section stays in view, with nothing hidden off to the side. */}
              <ul className="flex flex-wrap gap-1 md:flex-col">
                {section.items.map((item) => (
                  <li key={item.to}>
                    <NavLink item={item} />
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 md:px-0">
          {children}
        </main>
      </div>
    </div>
  );
}
