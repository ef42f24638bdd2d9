import { Link } from '@tanstack/react-router';
import { useState, type FormEvent, type ReactNode } from 'react';
import { errorMessage } from '../../api/client';
import { partnerApi } from '../../api/partner';
import { AuthCard } from '../../components/auth/auth-card';
import { EmailField, NewPasswordFields } from '../../components/forms/fields';
import { Button } from '../../components/ui/button';
import { FormError } from '../../components/ui/field';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * The card of both partner password pages: a form that, once the server answers, gives way to the answer's
 * message. What `check` finds before sending, or the server's refusal (`failed` when it gives no reason), shows
 * above the fields; `notice` stands there instead when the page cannot be used at all.
 */
function PasswordStepCard({
  title,
  backLabel,
  check,
  send,
  failed,
  submitLabel,
  notice,
  children,
}: {
  title: string;
  backLabel: string;
  check(): string | null;
  send(): Promise<{ message: string }>;
  failed: string;
  submitLabel: string;
  notice?: string;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const problem = check();
    if (problem) return setFailure(problem);
    setBusy(true);
    try {
      setDone((await send()).message);
    } catch (error) {
      setFailure(errorMessage(error, failed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard
      title={title}
      footer={
        <Link to={'/partner/login' as '/'} className="font-semibold text-indigo-700 hover:text-indigo-900">
          {backLabel}
        </Link>
      }
    >
      {done ? (
        <p role="status" className="text-sm text-slate-800">
          {done}
        </p>
      ) : (
        <form className="space-y-4" noValidate onSubmit={(event) => void submit(event)}>
          <FormError message={notice ?? failure} />
          {children}
          <Button type="submit" busy={busy} disabled={notice !== undefined} className="w-full">
            {submitLabel}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

/** /partner/forgot-password: the same answer whether or not the address has an account. */
export function PartnerForgotPasswordPage() {
  const [email, setEmail] = useState('');
  return (
    <PasswordStepCard
      title="Reset your partner password"
      backLabel="Back to sign in"
      check={() => (email.trim() ? null : 'Email is required')}
      send={() => partnerApi.forgotPassword(email.trim())}
      failed="Something went wrong. Please try again."
      submitLabel="Send reset link"
    >
      <EmailField value={email} onChange={(event) => setEmail(event.target.value)} />
    </PasswordStepCard>
  );
}

/** /partner/reset-password?token=…: choose a new password; every partner session ends. */
export function PartnerResetPasswordPage({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  return (
    <PasswordStepCard
      title="Choose a new password"
      backLabel="Sign in"
      check={() =>
        password.length < 8
          ? 'Password must be at least 8 characters'
          : password !== confirm
            ? 'Passwords must match'
            : null
      }
      send={() => partnerApi.resetPassword(token, password)}
      failed="This password reset link is invalid or has expired"
      submitLabel="Reset password"
      notice={token ? undefined : 'This link is incomplete. Open the link from the email again.'}
    >
      <NewPasswordFields
        password={{ value: password, onChange: (event) => setPassword(event.target.value) }}
        confirm={{ value: confirm, onChange: (event) => setConfirm(event.target.value) }}
      />
    </PasswordStepCard>
  );
}
