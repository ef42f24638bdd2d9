import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { phoneCodeForm } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { profileQueryOptions, userKeys, usersApi } from '../../api/users';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { fieldProps } from '../forms/field-props';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { QueryState } from '../ui/query-state';
import { StatusBadge } from './status-badge';
import { useSendEmailVerification } from './use-send-email-verification';

/** One contact line: what it is and whether it is verified, its value, and (until verified) the action to verify it. */
function ContactLine({
  label,
  value,
  verified,
  children,
}: {
  label: string;
  value: string;
  verified: boolean;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium text-slate-900">
          {label} <StatusBadge verified={verified} />
        </p>
        <p className="truncate text-sm text-slate-700">{value}</p>
      </div>
      {verified ? null : children}
    </div>
  );
}

function EmailVerification({ email, verified }: { email: string; verified: boolean }) {
  const send = useSendEmailVerification(email);
  return (
    <div className="py-4">
      <ContactLine label="Email" value={email} verified={verified}>
        <Button variant="secondary" busy={send.isPending} onClick={() => send.mutate()}>
          {send.isSuccess ? 'Send again' : 'Send verification email'}
        </Button>
      </ContactLine>
    </div>
  );
}

function PhoneVerification({ phone, verified }: { phone: string | null; verified: boolean }) {
  const queryClient = useQueryClient();
  const [codeSent, setCodeSent] = useState(false);
  /** 'log': the appliance has no SMS gateway, so the code went to its operator instead of this phone. */
  const [delivery, setDelivery] = useState<'sms' | 'log' | null>(null);
  const form = useForm<{ code: string }>({
    resolver: valibotResolver(phoneCodeForm),
    defaultValues: { code: '' },
  });
  const send = useMutation({
    mutationFn: () => usersApi.sendPhoneVerification(),
    onSuccess: (answer) => {
      setCodeSent(true);
      setDelivery(answer.delivery ?? null);
      toast.success(answer.message);
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to send the code')),
  });
  const confirm = useMutation({
    mutationFn: (code: string) => usersApi.verifyPhone(code),
    onSuccess: (profile) => {
      queryClient.setQueryData(userKeys.profile(), profile);
      setCodeSent(false);
      form.reset();
      toast.success('Phone number verified');
    },
    onError: (error) => {
      if (!applyServerErrors(error, form.setError, ['code']))
        toast.error(errorMessage(error, 'Verification failed'));
    },
  });

  if (!phone) {
    return (
      <div className="py-4">
        <p className="font-medium text-slate-900">Phone</p>
        <p className="text-sm text-slate-700">
          Add a phone number on your{' '}
          <Link to="/profile" className="font-semibold text-indigo-700 hover:text-indigo-900">
            profile
          </Link>{' '}
          to verify it.
        </p>
      </div>
    );
  }
  return (
    <div className="space-y-3 py-4">
      <ContactLine label="Phone" value={phone} verified={verified}>
        <Button variant="secondary" busy={send.isPending} onClick={() => send.mutate()}>
          {codeSent ? 'Send a new code' : 'Send code'}
        </Button>
      </ContactLine>
      {codeSent && !verified && delivery === 'log' ? (
        <p role="note" className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
          This appliance has no SMS gateway configured, so no text message was sent: the code was written to
          the server log for its operator. Ask your administrator for the code, or verify your phone later.
        </p>
      ) : null}
      {codeSent && !verified ? (
        <form
          className="flex flex-col gap-3 sm:flex-row sm:items-end"
          noValidate
          onSubmit={form.handleSubmit((values) => confirm.mutate(values.code))}
        >
          <div className="sm:w-48">
            <TextField
              label="6-digit code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              {...fieldProps(form, 'code')}
            />
          </div>
          <Button type="submit" busy={confirm.isPending}>
            Verify phone
          </Button>
        </form>
      ) : null}
    </div>
  );
}

/** Email and phone verification with the codes and links the server sends. */
export function ContactVerification() {
  const profile = useQuery(profileQueryOptions());
  return (
    <QueryState query={profile} errorFallback="Failed to fetch profile">
      {(user) => (
        <div className="divide-y divide-slate-200">
          <EmailVerification email={user.email} verified={!!user.email_verified_at} />
          <PhoneVerification phone={user.phone} verified={!!user.phone_verified_at} />
        </div>
      )}
    </QueryState>
  );
}
