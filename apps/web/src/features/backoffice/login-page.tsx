import { valibotResolver } from '@hookform/resolvers/valibot';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import * as v from 'valibot';
import {
  ADMIN_MESSAGES,
  BACKUP_CODE_PATTERN,
  adminCodeForm,
  adminLoginBody,
  type AdminLoginBody,
} from '@attestly/contracts';
import { adminAuthApi, adminErrorMessage } from '../../api/admin';

import { storeAdminSession, storeSetupToken } from '../../auth/admin-session';
import { AuthCard } from '../../components/auth/auth-card';
import { fieldProps } from '../../components/forms/field-props';
import { EmailField, PasswordField, SubmitButton } from '../../components/forms/fields';
import { FormError, TextField } from '../../components/ui/field';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSubmitFailure } from '../../lib/use-submit-failure';

/** A backup code instead of the authenticator's code (an administrator who lost the device). */
const backupCodeForm = v.object({
  code: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(ADMIN_MESSAGES.codeRequired),
    v.regex(BACKUP_CODE_PATTERN, 'Backup codes look like abcde-fghij'),
  ),
});

type CodeValues = { code: string };

/** spec 02 §2 "Login screen", §4 "Admin login flow": email and password, then the 6-digit code. */
export function AdminLoginPage() {
  useDocumentTitle('Back office sign in');
  const [challenge, setChallenge] = useState<{ tempToken: string } | null>(null);
  return (
    <AuthCard
      title="Back office sign in"
      subtitle={
        challenge
          ? 'Enter the 6-digit code from your authenticator app.'
          : 'Administrators sign in with their password and a second factor.'
      }
    >
      {challenge ? (
        <CodeStep tempToken={challenge.tempToken} onRestart={() => setChallenge(null)} />
      ) : (
        <CredentialsStep onChallenge={(tempToken) => setChallenge({ tempToken })} />
      )}
    </AuthCard>
  );
}

function CredentialsStep({ onChallenge }: { onChallenge(tempToken: string): void }) {
  const navigate = useNavigate();
  const form = useForm<AdminLoginBody>({
    resolver: valibotResolver(adminLoginBody),
    defaultValues: { email: '', password: '' },
  });
  const { failure, setFailure, onSubmit } = useSubmitFailure(
    form,
    async (values) => {
      const answer = await adminAuthApi.login(values);
      if (answer.requires_2fa_setup && answer.access_token) {
        storeSetupToken(answer.access_token, answer.expires_at);
        await navigate({ to: '/backoffice/setup-2fa' });
      } else if (answer.requires_2fa && answer.temp_token) {
        onChallenge(answer.temp_token);
      } else {
        setFailure('Login failed. Please try again.');
      }
    },
    (error) => {
      const message = adminErrorMessage(error, ADMIN_MESSAGES.loginFailed);
      toast.error(message);
      return message;
    },
  );

  return (
    <form className="space-y-4" noValidate onSubmit={onSubmit}>
      <FormError message={failure} />
      <EmailField autoComplete="username" {...fieldProps(form, 'email')} />
      <PasswordField {...fieldProps(form, 'password')} />
      <SubmitButton busy={form.formState.isSubmitting}>Sign in</SubmitButton>
    </form>
  );
}

function CodeStep({ tempToken, onRestart }: { tempToken: string; onRestart(): void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [backup, setBackup] = useState(false);
  const form = useForm<CodeValues>({
    resolver: valibotResolver(backup ? backupCodeForm : adminCodeForm),
    defaultValues: { code: '' },
  });
  const { failure, setFailure, onSubmit } = useSubmitFailure(
    form,
    async ({ code }) => {
      const answer = await adminAuthApi.verify2fa({ temp_token: tempToken, code: code.trim() });
      storeAdminSession(queryClient, answer);
      toast.success('Login successful!');
      await navigate({ to: '/backoffice' });
    },
    (error) => {
      form.reset({ code: '' });
      form.setFocus('code');
      return adminErrorMessage(error, ADMIN_MESSAGES.verifyFailed);
    },
  );

  return (
    <form className="space-y-4" noValidate onSubmit={onSubmit}>
      <FormError message={failure} />
      {backup ? (
        <TextField
          key="backup"
          label="Backup code"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={11}
          autoFocus
          {...fieldProps(form, 'code')}
        />
      ) : (
        <TextField
          key="totp"
          label="2FA code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          autoFocus
          {...fieldProps(form, 'code')}
        />
      )}
      <SubmitButton busy={form.formState.isSubmitting}>Verify</SubmitButton>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <button
          type="button"
          className="font-semibold text-indigo-700 hover:text-indigo-900"
          onClick={() => {
            setBackup((value) => !value);
            setFailure(null);
            form.reset({ code: '' });
          }}
        >
          {backup ? 'Use the authenticator code' : 'Use a backup code'}
        </button>
        <button
          type="button"
          className="font-semibold text-slate-700 hover:text-slate-900"
          onClick={onRestart}
        >
          Start over
        </button>
      </div>
    </form>
  );
}
