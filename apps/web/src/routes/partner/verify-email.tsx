import { Link, createFileRoute } from '@tanstack/react-router';
import { partnerApi } from '../../api/partner';
import { useHasToken } from '../../auth/session';
import { EmailVerificationPage } from '../../components/ui/token-action-page';
import { tokenSearch } from '../../lib/text-search';

export const Route = createFileRoute('/partner/verify-email')({
  ...tokenSearch,
  component: PartnerVerifyEmailPage,
});

/** The page the partner's verification mail links to; a pending partner becomes active. */
function PartnerVerifyEmailPage() {
  const { token } = Route.useSearch();
  const signedIn = useHasToken('partner');
  return (
    <EmailVerificationPage token={token} queryKey="partner-verify-email" action={partnerApi.verifyEmail}>
      <Link
        to={(signedIn ? '/partner/dashboard' : '/partner/login') as '/'}
        className="font-semibold text-indigo-700 hover:text-indigo-900"
      >
        {signedIn ? 'Go to your dashboard' : 'Sign in'}
      </Link>
    </EmailVerificationPage>
  );
}
