import { createFileRoute } from '@tanstack/react-router';
import { adminGuestOnly } from '../../auth/admin-session';
import { AdminLoginPage } from '../../features/backoffice/login-page';

/** spec 02 §2: /backoffice/login; a visitor who already holds an admin token goes to /backoffice. */
export const Route = createFileRoute('/backoffice/login')({
  beforeLoad: () => adminGuestOnly(),
  component: AdminLoginPage,
});
