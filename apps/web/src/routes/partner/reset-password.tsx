import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import * as v from 'valibot';
import { PartnerResetPasswordPage } from '../../features/partner/password-pages';

export const Route = createFileRoute('/partner/reset-password')({
  validateSearch: v.object({ token: v.optional(v.fallback(v.string(), ''), '') }),
  // Defaults stay out of the address (issue 25 item 12: clean URLs, no empty `?return_to=`).
  search: { middlewares: [stripSearchParams({ token: '' })] },
  component: function ResetPassword() {
    const { token } = Route.useSearch();
    return <PartnerResetPasswordPage token={token} />;
  },
});
