import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import * as v from 'valibot';
import { partnerGuestOnly } from '../../auth/guards';
import { PartnerLoginPage } from '../../features/partner/login-page';

/**
 * spec 01 §2: /partner/login, guest-only (a signed-in partner goes to /partner/dashboard). `?next=` is the portal page
 * a signed-out partner asked for (auth/guards.ts requirePartner): the sign-in leads back there.
 */
export const Route = createFileRoute('/partner/login')({
  validateSearch: v.object({
    next: v.optional(v.fallback(v.pipe(v.string(), v.maxLength(2000)), ''), ''),
    email: v.optional(v.fallback(v.pipe(v.string(), v.maxLength(254)), ''), ''),
  }),
  search: { middlewares: [stripSearchParams({ next: '', email: '' })] },
  beforeLoad: ({ search }) => partnerGuestOnly(search.next),
  component: function PartnerLogin() {
    const { next, email } = Route.useSearch();
    return <PartnerLoginPage next={next} email={email} />;
  },
});
