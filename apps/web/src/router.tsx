import { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { ApiError, configureApiClient } from './api/client';
import { LOGIN_PATHS } from './auth/account-kind';
import { partnerLoginHref } from './auth/guards';
import { LoadingState } from './components/ui/query-state';
import { routeTree } from './routeTree.gen';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Client errors (401, 404, 422...) will not change on retry; network and server errors may.
        retry: (failures, error) =>
          failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
      },
    },
  });
}

export function createAppRouter(
  queryClient: QueryClient,
  options: { history?: Parameters<typeof createRouter>[0]['history'] } = {},
) {
  const router = createRouter({
    routeTree,
    context: { queryClient },
    history: options.history,
    defaultPreload: 'intent',
    // Guards and loaders read through TanStack Query's cache, so the router keeps no cache of its own.
    defaultPreloadStaleTime: 0,
    defaultPendingComponent: () => <LoadingState />,
    scrollRestoration: true,
    // Unknown paths anywhere go to the root's not-found page (components/layout/not-found-page.tsx).
    notFoundMode: 'root',
  });
  configureApiClient({
    currentPath: () => router.state.location.pathname,
    onUnauthorized: (kind) => {
      queryClient.removeQueries({ queryKey: ['users'] });
      const target = LOGIN_PATHS[kind];
      if (router.state.location.pathname === target) return;
      // A partner whose session ran out comes back to the page they were on after signing in again.
      const href = kind === 'partner' ? partnerLoginHref(router.state.location.href) : target;
      void router.navigate({ href, replace: true });
    },
  });
  return router;
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
