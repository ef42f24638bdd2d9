import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import * as v from 'valibot';
import { PartnerRegisteredPage } from '../../features/partner/login-page';

/** What happens after a partner registration: the mail, the link, then sign-in (issue 25 item 13). */
export const Route = createFileRoute('/partner/registered')({
  validateSearch: v.object({ email: v.optional(v.fallback(v.pipe(v.string(), v.maxLength(254)), ''), '') }),
  search: { middlewares: [stripSearchParams({ email: '' })] },
  component: function Registered() {
    const { email } = Route.useSearch();
    return <PartnerRegisteredPage email={email} />;
  },
});
