import type { ReactNode } from 'react';
import { ToastRegion } from '../ui/toaster';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';

/** Header, main landmark (the skip link's target) and footer around a public page. */
export function PublicPage({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <PublicHeader />
      <ToastRegion maxWidth="max-w-6xl" />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <PublicFooter />
    </div>
  );
}
