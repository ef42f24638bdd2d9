import { Link, createFileRoute, stripSearchParams } from '@tanstack/react-router';
import * as v from 'valibot';
import { usersApi } from '../api/users';
import { TokenActionPage } from '../components/ui/token-action-page';
import { useHasToken } from '../auth/session';
import { useDocumentTitle } from '../lib/use-document-title';

export const Route = createFileRoute('/verify-email')({
  validateSearch: v.object({ token: v.optional(v.fallback(v.string(), ''), '') }),
  // Defaults stay out of the address (issue 25 item 12: clean URLs, no empty `?return_to=`).
  search: { middlewares: [stripSearchParams({ token: '' })] },
  component: VerifyEmailPage,
});

/** The page the verification mail links to (`/verify-email?token=…`). */
function VerifyEmailPage() {
  useDocumentTitle('Verify your email');
  const { token } = Route.useSearch();
  const signedIn = useHasToken('user');
  return (
    <TokenActionPage
      title="Verify your email"
      token={token}
      queryKey="verify-email"
      action={usersApi.verifyEmail}
      pendingLabel="Verifying your email address…"
      fallbackError="This verification link is invalid or has expired."
    >
      {signedIn ? (
        <Link to="/profile" className="font-semibold text-indigo-700 hover:text-indigo-900">
          Go to your profile
        </Link>
      ) : (
        <Link to="/login" className="font-semibold text-indigo-700 hover:text-indigo-900">
          Sign in
        </Link>
      )}
    </TokenActionPage>
  );
}
