import { Link, useLocation } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { useHasToken } from '../../auth/session';
import { buttonClass } from '../ui/button';
import { Brand } from './brand';
import { StickyHeader } from './sticky-header';

const linkClass =
  'rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900';

/**
 * Header of the public pages (spec 01 §2 "Landing page"): News, Docs, the landing page's #features and #industries
 * anchors, Sign in and Sign up; below the md breakpoint the links fold into a menu button.
 */
export function PublicHeader() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const pathname = useLocation({ select: (location) => location.pathname });
  const signedIn = useHasToken('user');

  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const close = () => setOpen(false);
  const links = (
    <>
      <Link to="/" hash="features" className={linkClass} onClick={close}>
        Features
      </Link>
      <Link to="/" hash="industries" className={linkClass} onClick={close}>
        Industries
      </Link>
      <Link to="/news" className={linkClass} onClick={close}>
        News
      </Link>
      <Link to="/docs" className={linkClass} onClick={close}>
        Docs
      </Link>
    </>
  );
  const account = signedIn ? (
    <Link to="/dashboard" className={buttonClass('primary')} onClick={close}>
      Dashboard
    </Link>
  ) : (
    <>
      <Link to="/login" className={linkClass} onClick={close}>
        Sign in
      </Link>
      <Link to="/register" className={buttonClass('primary')} onClick={close}>
        Sign up
      </Link>
    </>
  );

  return (
    <StickyHeader translucent>
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Brand />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {links}
        </nav>
        <div className="hidden items-center gap-2 md:flex">{account}</div>
        <button
          type="button"
          className="rounded-md p-2 text-slate-700 hover:bg-slate-100 md:hidden"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((value) => !value)}
        >
          <span className="sr-only">{open ? 'Close menu' : 'Open menu'}</span>
          <svg
            viewBox="0 0 24 24"
            className="size-6"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </div>
      {open ? (
        <div id={menuId} className="border-t border-slate-200 px-4 pt-2 pb-4 md:hidden">
          <nav aria-label="Mobile" className="flex flex-col gap-1">
            {links}
          </nav>
          <div className="mt-3 flex flex-col gap-2 border-t border-slate-200 pt-3">{account}</div>
        </div>
      ) : null}
    </StickyHeader>
  );
}
