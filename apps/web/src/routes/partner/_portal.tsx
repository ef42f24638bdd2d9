import { createFileRoute } from '@tanstack/react-router';
import { requirePartner } from '../../auth/guards';
import { PartnerLayout } from '../../features/partner/partner-layout';

/** spec 01 §2 partner guard: every signed-in partner page (no partner token → /partner/login, then back here). */
export const Route = createFileRoute('/partner/_portal')({
  beforeLoad: ({ location }) => requirePartner(location.href),
  component: PartnerLayout,
});
