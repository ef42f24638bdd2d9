import type { ReactNode } from 'react';
import { PublicPage } from './public-page';

export function LegalPage({
  title,
  updated,
  children,
}: {
  title: string;
  updated: string;
  children: ReactNode;
}) {
  return (
    <PublicPage>
      <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        <h1 className="text-4xl font-bold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-2 text-sm text-slate-700">Last updated {updated}</p>
        <div className="prose-body mt-8">{children}</div>
      </article>
    </PublicPage>
  );
}
