import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { loginBody } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { signIn } from '../../auth/session';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';
import { FormError } from '../ui/field';
import { AuthCard } from './auth-card';
import { SignInFields, useSignInForm } from './sign-in-fields';

/**
 * spec 01 §2 "User sign-in": email, password, remember me; success goes to /dashboard. After sign-up the address is
 * prefilled and a note says where the verification link went (a new link can be asked for once signed in).
 */
export function LoginForm({ email = '', registered = false }: { email?: string; registered?: boolean } = {}) {
  useDocumentTitle('Sign in');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { form, failure, onSubmit } = useSignInForm(
    loginBody,
    email,
    async (values) => {
      await signIn(queryClient, values);
      toast.success('Login successful!');
      await navigate({ to: '/dashboard' });
    },
    // Shown once, beside the form it is about (not also as a toast).
    (error) => errorMessage(error, 'Login failed'),
  );

  return (
    <AuthCard
      title="Sign in"
      subtitle="Welcome back. Sign in to manage your verifications."
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Link to="/register" className="font-semibold text-indigo-700 hover:text-indigo-900">
            Sign up
          </Link>
        </>
      }
    >
      {registered && email ? (
        <div
          role="status"
          className="mb-4 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
        >
          We sent a verification link to <strong className="break-all">{email}</strong>. Open it to confirm
          your address — you can sign in now, and ask for a new link from your dashboard if it does not
          arrive.
        </div>
      ) : null}
      <form className="space-y-4" noValidate onSubmit={onSubmit}>
        <FormError message={failure} />
        <SignInFields
          form={form}
          forgotPassword={
            <Link
              to="/forgot-password"
              className="text-sm font-semibold text-indigo-700 hover:text-indigo-900"
            >
              Forgot password?
            </Link>
          }
        />
      </form>
    </AuthCard>
  );
}
