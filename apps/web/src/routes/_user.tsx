import { useQueryClient } from '@tanstack/react-query';
import { Outlet, createFileRoute, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { requireUser } from '../auth/guards';
import { keepUserSessionFresh } from '../auth/session';
import { AppShell } from '../components/layout/app-shell';
import { ErrorState } from '../components/ui/query-state';

/** spec 01 §2 user guard and common layout for /dashboard, /profile, /verification, /tokens and /security. */
export const Route = createFileRoute('/_user')({
  beforeLoad: ({ context }) => requireUser(context.queryClient),
  component: UserLayout,
  errorComponent: UserAreaError,
});

function UserLayout() {
  const queryClient = useQueryClient();
  useEffect(() => keepUserSessionFresh(queryClient), [queryClient]);
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

function UserAreaError({ error }: { error: unknown }) {
  const router = useRouter();
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="mb-4 text-xl font-semibold text-slate-900">Failed to load user data</h1>
      <ErrorState
        error={error}
        fallback="Failed to load user data"
        onRetry={() => void router.invalidate()}
      />
    </div>
  );
}
