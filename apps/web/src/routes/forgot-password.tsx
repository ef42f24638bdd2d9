import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation } from '@tanstack/react-query';
import { Link, createFileRoute } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { forgotPasswordBody } from '@attestly/contracts';
import { errorMessage } from '../api/client';
import { usersApi } from '../api/users';
import { AuthCard } from '../components/auth/auth-card';
import { fieldProps } from '../components/forms/field-props';
import { EmailField } from '../components/forms/fields';
import { Button } from '../components/ui/button';
import { FormError } from '../components/ui/field';
import { useDocumentTitle } from '../lib/use-document-title';

export const Route = createFileRoute('/forgot-password')({ component: ForgotPasswordPage });

function ForgotPasswordPage() {
  useDocumentTitle('Reset your password');
  const form = useForm<{ email: string }>({
    resolver: valibotResolver(forgotPasswordBody),
    defaultValues: { email: '' },
  });
  const request = useMutation({ mutationFn: (email: string) => usersApi.forgotPassword(email) });

  return (
    <AuthCard
      title="Reset your password"
      subtitle="Enter the email address of your account and we will send you a link to choose a new password."
      footer={
        <Link to="/login" className="font-semibold text-indigo-700 hover:text-indigo-900">
          Back to sign in
        </Link>
      }
    >
      {request.isSuccess ? (
        <div
          role="status"
          className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900"
        >
          <p>{request.data.message}</p>
          <p className="mt-2">
            The link is valid for a limited time. Check your spam folder if nothing arrives.
          </p>
        </div>
      ) : (
        <form
          className="space-y-4"
          noValidate
          onSubmit={form.handleSubmit((values) => request.mutate(values.email))}
        >
          <FormError
            message={request.isError ? errorMessage(request.error, 'Could not send the reset link') : null}
          />
          <EmailField {...fieldProps(form, 'email')} />
          <Button type="submit" busy={request.isPending} className="w-full">
            Send reset link
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
