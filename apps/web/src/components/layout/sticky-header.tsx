import type { ReactNode } from 'react';

/**
 * The header of every layout (public pages, the user's and partner's areas, the back office): it stays in view, and
 * its first stop for the keyboard is a "Skip to content" link to the page's `<main id="main">`.
 */
export function StickyHeader({
  translucent = false,
  children,
}: {
  translucent?: boolean;
  children: ReactNode;
}) {
  return (
    <header
      className={`sticky top-0 z-40 border-b border-slate-200 ${translucent ? 'bg-white/95 backdrop-blur' : 'bg-white'}`}
    >
      <a
        href="#main"
        className="sr-only rounded bg-indigo-700 px-3 py-2 text-white focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      {children}
    </header>
  );
}
