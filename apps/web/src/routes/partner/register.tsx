import { createFileRoute } from '@tanstack/react-router';
import { partnerGuestOnly } from '../../auth/guards';
import { PartnerRegisterPage } from '../../features/partner/login-page';

/** Partner registration at its own address (issue 25 item 13); /partner/login links here. Guest-only. */
export const Route = createFileRoute('/partner/register')({
  beforeLoad: () => partnerGuestOnly(),
  component: PartnerRegisterPage,
});
