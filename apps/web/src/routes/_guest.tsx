import { Outlet, createFileRoute } from '@tanstack/react-router';
import { guestOnly } from '../auth/guards';

/** spec 01 §2 guest-only guard: signed-in users are sent from /login and /register to /dashboard. */
export const Route = createFileRoute('/_guest')({
  beforeLoad: () => guestOnly(),
  component: Outlet,
});
