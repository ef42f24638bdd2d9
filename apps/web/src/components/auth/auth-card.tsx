import type { ReactNode } from 'react';
import { Brand } from '../layout/brand';
import { ToastRegion } from '../ui/toaster';

/** The centred card around sign-in, sign-up and password screens. */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col items-center bg-slate-50 px-4 py-10 sm:justify-center">
      <Brand />
      <ToastRegion maxWidth="max-w-md" underHeader={false} />
      <main id="main" className="mt-8 w-full max-w-md">
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          {subtitle ? <p className="mt-2 text-sm text-slate-700">{subtitle}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
        {footer ? <div className="mt-6 text-center text-sm text-slate-700">{footer}</div> : null}
      </main>
    </div>
  );
}
