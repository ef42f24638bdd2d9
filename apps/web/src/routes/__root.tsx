import type { QueryClient } from '@tanstack/react-query';
import { Navigate, Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { Toaster } from '../components/ui/toaster';

export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  // spec 01 §2: any other path redirects to /.
  notFoundComponent: () => <Navigate to="/" replace />,
});

function RootLayout() {
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  );
}
