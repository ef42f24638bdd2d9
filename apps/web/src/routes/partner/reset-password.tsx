import { createFileRoute } from '@tanstack/react-router';
import { PartnerResetPasswordPage } from '../../features/partner/password-pages';
import { tokenSearch } from '../../lib/text-search';

export const Route = createFileRoute('/partner/reset-password')({
  ...tokenSearch,
  component: function ResetPassword() {
    const { token } = Route.useSearch();
    return <PartnerResetPasswordPage token={token} />;
  },
});
