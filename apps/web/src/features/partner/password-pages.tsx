import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import { partnerApi } from '../../api/partner';
import { AuthCard } from '../../components/auth/auth-card';
import { EmailField, NewPasswordFields } from '../../components/forms/fields';
import { Button } from '../../components/ui/button';
import { FormError } from '../../components/ui/field';
import { useDocumentTitle } from '../../lib/use-document-title';

const linkClass = 'font-semibold text-indigo-700 hover:text-indigo-900';

/** /partner/forgot-password: the same answer whether or not the address has an account. */
export function PartnerForgotPasswordPage() {
  useDocumentTitle('Reset your partner password');
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!email.trim()) return setFailure('Email is required');
    setBusy(true);
    try {
      setSent((await partnerApi.forgotPassword(email.trim())).message);
    } catch (error) {
      setFailure(errorMessage(error, 'Something went wrong. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard
      title="Reset your partner password"
      footer={
        <Link to={'/partner/login' as '/'} className={linkClass}>
          Back to sign in
        </Link>
      }
    >
      {sent ? (
        <p role="status" className="text-sm text-slate-800">
          {sent}
        </p>
      ) : (
        <form className="space-y-4" noValidate onSubmit={(event) => void submit(event)}>
          <FormError message={failure} />
          <EmailField value={email} onChange={(event) => setEmail(event.target.value)} />
          <Button type="submit" busy={busy} className="w-full">
            Send reset link
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

/** /partner/reset-password?token=…: choose a new password; every partner session ends. */
export function PartnerResetPasswordPage({ token }: { token: string }) {
  useDocumentTitle('Choose a new password');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (password.length < 8) return setFailure('Password must be at least 8 characters');
    if (password !== confirm) return setFailure('Passwords must match');
    setBusy(true);
    try {
      setDone((await partnerApi.resetPassword(token, password)).message);
    } catch (error) {
      setFailure(errorMessage(error, 'This password reset link is invalid or has expired'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard
      title="Choose a new password"
      footer={
        <Link to={'/partner/login' as '/'} className={linkClass}>
          Sign in
        </Link>
      }
    >
      {done ? (
        <p role="status" className="text-sm text-slate-800">
          {done}
        </p>
      ) : (
        <form className="space-y-4" noValidate onSubmit={(event) => void submit(event)}>
          <FormError
            message={token ? failure : 'This link is incomplete. Open the link from the email again.'}
          />
          <NewPasswordFields
            password={{ value: password, onChange: (event) => setPassword(event.target.value) }}
            confirm={{ value: confirm, onChange: (event) => setConfirm(event.target.value) }}
          />
          <Button type="submit" busy={busy} disabled={!token} className="w-full">
            Reset password
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
