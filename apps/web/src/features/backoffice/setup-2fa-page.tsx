import { valibotResolver } from '@hookform/resolvers/valibot';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  ADMIN_MESSAGES,
  adminEnable2faBody,
  adminSetup2faBody,
  type Admin2faSetupResponse,
  type AdminEnable2faBody,
  type AdminSetup2faBody,
} from '@attestly/contracts';
import { adminAuthApi, adminErrorMessage } from '../../api/admin';

import { storeAdminSession } from '../../auth/admin-session';
import { AuthCard } from '../../components/auth/auth-card';
import { fieldProps } from '../../components/forms/field-props';
import { Button } from '../../components/ui/button';
import { FormError, TextField } from '../../components/ui/field';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';

/** spec 02 §9: the completion screen leads to the login page after 2 seconds. */
export const SETUP_SUCCESS_REDIRECT_MS = 2000;

/**
 * spec 02 §2 "Setup-2fa screen": (1) current password; (2) QR code, secret and backup codes; (3) the first 6-digit
 * code enables two-factor; (4) a completion screen, then the login page (which, holding the new admin token, opens
 * the back office).
 */
export function AdminSetup2faPage() {
  useDocumentTitle('Set up two-factor authentication');
  const [setup, setSetup] = useState<Admin2faSetupResponse | null>(null);
  const [done, setDone] = useState(false);
  return (
    <AuthCard
      title="Set up two-factor authentication"
      subtitle={done ? undefined : 'Two-factor authentication is required for every administrator.'}
      footer={
        done ? undefined : (
          <Link to="/backoffice/login" className="font-semibold text-indigo-700 hover:text-indigo-900">
            Back to sign in
          </Link>
        )
      }
    >
      {done ? <Completed /> : setup ? <ShowSecret setup={setup} onEnabled={() => setDone(true)} /> : null}
      {!done && !setup ? <PasswordStep onReady={setSetup} /> : null}
    </AuthCard>
  );
}

function PasswordStep({ onReady }: { onReady(setup: Admin2faSetupResponse): void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AdminSetup2faBody>({
    resolver: valibotResolver(adminSetup2faBody),
    defaultValues: { password: '' },
  });
  const { isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      onReady(await adminAuthApi.setup2fa(values));
    } catch (error) {
      if (!applyServerErrors(error, form.setError, ['password'])) {
        const message = adminErrorMessage(error, ADMIN_MESSAGES.setupFailed);
        setFailure(message);
        toast.error(message);
      }
    }
  });
  return (
    <form className="space-y-4" noValidate onSubmit={onSubmit}>
      <p className="text-sm font-semibold text-slate-800">Step 1 of 3: confirm it is you</p>
      <FormError message={failure} />
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        {...fieldProps(form, 'password')}
      />
      <Button type="submit" busy={isSubmitting} className="w-full">
        Continue
      </Button>
    </form>
  );
}

function downloadCodes(codes: string[]): void {
  const text = `Attestly back office backup codes\nEach code works once.\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'attestly-backup-codes.txt';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function ShowSecret({ setup, onEnabled }: { setup: Admin2faSetupResponse; onEnabled(): void }) {
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AdminEnable2faBody>({
    resolver: valibotResolver(adminEnable2faBody),
    defaultValues: { totp_code: '' },
  });
  const { isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await adminAuthApi.enable2fa({ totp_code: values.totp_code.trim() });
      storeAdminSession(queryClient, answer);
      onEnabled();
    } catch (error) {
      setFailure(adminErrorMessage(error, ADMIN_MESSAGES.verifyFailed));
      form.reset({ totp_code: '' });
      form.setFocus('totp_code');
    }
  });

  const copySecret = async () => {
    try {
      await navigator.clipboard.writeText(setup.secret);
      toast.success('Secret copied');
    } catch {
      toast.error('Copy failed: select the secret and copy it by hand');
    }
  };

  return (
    <div className="space-y-6">
      <section aria-labelledby="setup-scan" className="space-y-3">
        <h2 id="setup-scan" className="text-sm font-semibold text-slate-800">
          Step 2 of 3: add Attestly to your authenticator app
        </h2>
        <img
          src={setup.qr_code_data_uri}
          alt="QR code for your authenticator app"
          className="mx-auto size-48 rounded border border-slate-200"
        />
        <p className="text-sm text-slate-700">Or enter this secret by hand:</p>
        <div className="flex flex-wrap items-center gap-2">
          <code
            data-testid="totp-secret"
            className="min-w-0 flex-1 rounded bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900"
          >
            {setup.secret}
          </code>
          <Button variant="secondary" onClick={() => void copySecret()}>
            Copy secret
          </Button>
        </div>
      </section>
      <section aria-labelledby="setup-backup" className="space-y-3">
        <h2 id="setup-backup" className="text-sm font-semibold text-slate-800">
          Backup codes
        </h2>
        <p className="text-sm text-slate-700">
          Each code signs you in once if you lose your authenticator. They are shown only now: download or
          print them and keep them somewhere safe.
        </p>
        <ul className="grid grid-cols-2 gap-2 font-mono text-sm text-slate-900" aria-label="Backup codes">
          {setup.backup_codes.map((code) => (
            <li key={code} className="rounded bg-slate-100 px-2 py-1 text-center">
              {code}
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap gap-2 print:hidden">
          <Button variant="secondary" onClick={() => downloadCodes(setup.backup_codes)}>
            Download codes
          </Button>
          <Button variant="secondary" onClick={() => window.print()}>
            Print codes
          </Button>
        </div>
      </section>
      <form className="space-y-4 print:hidden" noValidate onSubmit={onSubmit}>
        <h2 className="text-sm font-semibold text-slate-800">Step 3 of 3: enter the code your app shows</h2>
        <FormError message={failure} />
        <TextField
          label="Verification code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          {...fieldProps(form, 'totp_code')}
        />
        <Button type="submit" busy={isSubmitting} className="w-full">
          Enable two-factor authentication
        </Button>
      </form>
    </div>
  );
}

function Completed() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(
      () => void navigate({ to: '/backoffice/login', replace: true }),
      SETUP_SUCCESS_REDIRECT_MS,
    );
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <p
      role="status"
      className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900"
    >
      Two-factor authentication is enabled. Taking you to the back office…
    </p>
  );
}
