import { createFileRoute } from '@tanstack/react-router';
import { partnerGuestOnly } from '../../auth/guards';
import { PartnerLoginPage } from '../../features/partner/login-page';

/** spec 01 §2: /partner/login, guest-only (a signed-in partner goes to /partner/dashboard). */
export const Route = createFileRoute('/partner/login')({
  beforeLoad: () => partnerGuestOnly(),
  component: PartnerLoginPage,
});
