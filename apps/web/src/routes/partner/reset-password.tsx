import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { PartnerResetPasswordPage } from '../../features/partner/password-pages';

export const Route = createFileRoute('/partner/reset-password')({
  validateSearch: v.object({ token: v.optional(v.fallback(v.string(), ''), '') }),
  component: function ResetPassword() {
    const { token } = Route.useSearch();
    return <PartnerResetPasswordPage token={token} />;
  },
});
