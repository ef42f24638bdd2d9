import { Link, createFileRoute, stripSearchParams } from '@tanstack/react-router';
import * as v from 'valibot';
import { partnerApi } from '../../api/partner';
import { useHasToken } from '../../auth/session';
import { TokenActionPage } from '../../components/ui/token-action-page';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/partner/verify-email')({
  validateSearch: v.object({ token: v.optional(v.fallback(v.string(), ''), '') }),
  // Defaults stay out of the address (issue 25 item 12: clean URLs, no empty `?return_to=`).
  search: { middlewares: [stripSearchParams({ token: '' })] },
  component: PartnerVerifyEmailPage,
});

/** The page the partner's verification mail links to; a pending partner becomes active. */
function PartnerVerifyEmailPage() {
  useDocumentTitle('Verify your email');
  const { token } = Route.useSearch();
  const signedIn = useHasToken('partner');
  return (
    <TokenActionPage
      title="Verify your email"
      token={token}
      queryKey="partner-verify-email"
      action={partnerApi.verifyEmail}
      pendingLabel="Verifying your email address…"
      fallbackError="This verification link is invalid or has expired."
    >
      <Link
        to={(signedIn ? '/partner/dashboard' : '/partner/login') as '/'}
        className="font-semibold text-indigo-700 hover:text-indigo-900"
      >
        {signedIn ? 'Go to your dashboard' : 'Sign in'}
      </Link>
    </TokenActionPage>
  );
}
