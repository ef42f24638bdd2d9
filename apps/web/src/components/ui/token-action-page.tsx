import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AuthCard } from '../auth/auth-card';
import { ErrorState, LoadingState } from './query-state';

/**
 * A page a mailed link opens (`?token=…`), titled `title` in the tab too: it performs the action once and shows the outcome. A query rather than
 * an effect, so a remount (React's StrictMode, back/forward) reuses the answer instead of spending the token twice.
 */
export function TokenActionPage({
  title,
  token,
  queryKey,
  action,
  pendingLabel,
  fallbackError,
  children,
}: {
  title: string;
  token: string;
  queryKey: string;
  action(token: string): Promise<{ message: string }>;
  pendingLabel: string;
  fallbackError: string;
  children?: ReactNode;
}) {
  useDocumentTitle(title);
  const result = useQuery({
    queryKey: [queryKey, token],
    queryFn: () => action(token),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return (
    <AuthCard title={title}>
      {token === '' ? (
        <ErrorState error={null} fallback="This link is incomplete. Open the link from the email again." />
      ) : result.isPending ? (
        <LoadingState label={pendingLabel} />
      ) : result.isError ? (
        <ErrorState error={result.error} fallback={fallbackError} />
      ) : (
        <p
          role="status"
          className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900"
        >
          {result.data.message}
        </p>
      )}
      {children ? <div className="mt-6 text-sm">{children}</div> : null}
    </AuthCard>
  );
}

/** The page an address-verification mail links to, for users and partners alike; `children` say where to go next. */
export function EmailVerificationPage({
  token,
  queryKey,
  action,
  children,
}: {
  token: string;
  queryKey: string;
  action(token: string): Promise<{ message: string }>;
  children: ReactNode;
}) {
  return (
    <TokenActionPage
      title="Verify your email"
      token={token}
      queryKey={queryKey}
      action={action}
      pendingLabel="Verifying your email address…"
      fallbackError="This verification link is invalid or has expired."
    >
      {children}
    </TokenActionPage>
  );
}
