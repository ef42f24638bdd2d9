import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '../../auth/admin-session';
import { AdminLayout } from '../../features/backoffice/admin-layout';

/** spec 02 §2 "Admin layout" and its guard: every back-office page but login and 2FA setup. */
export const Route = createFileRoute('/backoffice/_admin')({
  beforeLoad: () => requireAdmin(),
  component: AdminLayout,
});
