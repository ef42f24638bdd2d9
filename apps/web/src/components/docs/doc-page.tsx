import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/** The way back to /docs and the page's heading, at the top of each documentation page. */
export function DocTitle({ children }: { children: ReactNode }) {
  return (
    <>
      <Link to="/docs" className="text-sm font-semibold text-indigo-700 hover:text-indigo-900">
        ← Documentation
      </Link>
      <h1 className="mt-4 text-4xl font-bold tracking-tight text-slate-900">{children}</h1>
    </>
  );
}

/** A titled part of a documentation page; `id` names its heading (and so the section) and can be linked to. */
export function DocSection({
  id,
  title,
  className = 'mt-10',
  children,
}: {
  id: string;
  title: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="text-2xl font-bold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
