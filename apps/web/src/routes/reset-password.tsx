import { valibotResolver } from '@hookform/resolvers/valibot';
import { Link, createFileRoute, useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import type * as v from 'valibot';
import { resetPasswordForm } from '@attestly/contracts';
import { errorMessage } from '../api/client';
import { usersApi } from '../api/users';
import { AuthCard } from '../components/auth/auth-card';
import { fieldProps } from '../components/forms/field-props';
import { NewPasswordFields } from '../components/forms/fields';
import { Button } from '../components/ui/button';
import { FormError } from '../components/ui/field';
import { pendingReturn } from '../lib/oauth-return';
import { toast } from '../lib/toast';
import { tokenSearch } from '../lib/text-search';
import { useDocumentTitle } from '../lib/use-document-title';
import { useSubmitFailure } from '../lib/use-submit-failure';

export const Route = createFileRoute('/reset-password')({
  ...tokenSearch,
  component: ResetPasswordPage,
});

type ResetValues = v.InferInput<typeof resetPasswordForm>;

/** The page the reset mail links to (`/reset-password?token=…`). */
function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const { token } = Route.useSearch();
  const navigate = useNavigate();
  const form = useForm<ResetValues>({
    resolver: valibotResolver(resetPasswordForm),
    // Run every check, so 'Passwords must match' shows even while another field is still invalid.
    criteriaMode: 'all',
    defaultValues: { new_password: '', confirmPassword: '' },
  });
  const { failure, onSubmit } = useSubmitFailure(
    form,
    async (values) => {
      const answer = await usersApi.resetPassword({ token, new_password: values.new_password });
      toast.success(answer.message);
      // Back to the authorization that sent the user to reset it, if any (lib/oauth-return.ts).
      const back = pendingReturn();
      if (back) window.location.assign(back.path);
      else await navigate({ to: '/login' });
    },
    (error) => errorMessage(error, 'Could not reset the password'),
  );

  if (!token) {
    return (
      <AuthCard title="Choose a new password">
        <p className="text-sm text-slate-700">
          This page needs the link from your password reset email.{' '}
          <Link to="/forgot-password" className="font-semibold text-indigo-700 hover:text-indigo-900">
            Request a new link
          </Link>
          .
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      subtitle="After the change, every device signed in to your account is signed out."
      footer={
        <Link to="/forgot-password" className="font-semibold text-indigo-700 hover:text-indigo-900">
          Request a new link
        </Link>
      }
    >
      <form className="space-y-4" noValidate onSubmit={onSubmit}>
        <FormError message={failure} />
        <NewPasswordFields
          password={{ ...fieldProps(form, 'new_password'), hint: 'At least 8 characters.' }}
          confirm={fieldProps(form, 'confirmPassword')}
        />
        <Button type="submit" busy={form.formState.isSubmitting} className="w-full">
          Set new password
        </Button>
      </form>
    </AuthCard>
  );
}
