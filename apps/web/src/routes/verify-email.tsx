import { Link, createFileRoute } from '@tanstack/react-router';
import { usersApi } from '../api/users';
import { EmailVerificationPage } from '../components/ui/token-action-page';
import { useHasToken } from '../auth/session';
import { tokenSearch } from '../lib/text-search';

export const Route = createFileRoute('/verify-email')({
  ...tokenSearch,
  component: VerifyEmailPage,
});

/** The page the verification mail links to (`/verify-email?token=…`). */
function VerifyEmailPage() {
  const { token } = Route.useSearch();
  const signedIn = useHasToken('user');
  return (
    <EmailVerificationPage token={token} queryKey="verify-email" action={usersApi.verifyEmail}>
      {signedIn ? (
        <Link to="/profile" className="font-semibold text-indigo-700 hover:text-indigo-900">
          Go to your profile
        </Link>
      ) : (
        <Link to="/login" className="font-semibold text-indigo-700 hover:text-indigo-900">
          Sign in
        </Link>
      )}
    </EmailVerificationPage>
  );
}
