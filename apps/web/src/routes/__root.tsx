import type { QueryClient } from '@tanstack/react-query';
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { NotFoundPage } from '../components/layout/not-found-page';
import { Toaster } from '../components/ui/toaster';

export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  // spec 01 §2 sends any other path to /; issue 25 item 12 asks for a page that says the address is unknown instead,
  // with the way back to the home page (or the area's own start) as its first button.
  notFoundComponent: NotFoundPage,
});

function RootLayout() {
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  );
}
