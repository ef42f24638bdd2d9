import type { ReactNode } from 'react';
import { errorMessage } from '../../api/client';
import { Button, Spinner } from './button';

/** The loading state every query shows. */
export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="flex items-center gap-3 py-8 text-sm text-slate-700" role="status" aria-live="polite">
      <Spinner />
      <span>{label}</span>
    </div>
  );
}

/** The error state every query shows, with a retry; `title` names what failed above the reason. */
export function ErrorState({
  error,
  fallback = 'Something went wrong.',
  title,
  onRetry,
}: {
  error: unknown;
  fallback?: string;
  title?: string;
  onRetry?: () => void;
}) {
  const message = errorMessage(error, fallback);
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
      {title && title !== message ? <p className="font-semibold">{title}</p> : null}
      <p>{message}</p>
      {onRetry ? (
        <Button variant="secondary" className="mt-3" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}

interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  refetch(): unknown;
}

/** Renders a query's loading, error or data state. */
export function QueryState<T>({
  query,
  loadingLabel,
  errorFallback,
  errorTitle,
  children,
}: {
  query: QueryLike<T>;
  loadingLabel?: string;
  errorFallback?: string;
  errorTitle?: string;
  children(data: T): ReactNode;
}) {
  if (query.isPending) return <LoadingState label={loadingLabel} />;
  if (query.isError || query.data === undefined) {
    return (
      <ErrorState
        error={query.error}
        fallback={errorFallback}
        title={errorTitle}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return <>{children(query.data)}</>;
}
