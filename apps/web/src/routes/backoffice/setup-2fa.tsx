import { createFileRoute } from '@tanstack/react-router';
import { requireSetupToken } from '../../auth/admin-session';
import { AdminSetup2faPage } from '../../features/backoffice/setup-2fa-page';

/** spec 02 §2: mandatory two-factor setup; without a setup token the visitor goes to the login page. */
export const Route = createFileRoute('/backoffice/setup-2fa')({
  beforeLoad: () => requireSetupToken(),
  component: AdminSetup2faPage,
});
