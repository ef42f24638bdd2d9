import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { changePasswordForm, type ChangePasswordForm as ChangePasswordValues } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { userKeys, usersApi } from '../../api/users';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { fieldProps } from '../forms/field-props';
import { Button } from '../ui/button';
import { NewPasswordFields, PasswordField } from '../forms/fields';

const EMPTY: ChangePasswordValues = { current_password: '', new_password: '', confirmPassword: '' };

/** Changing the password signs out every other session (the server's rule), so the session list is refreshed. */
export function ChangePasswordForm() {
  const queryClient = useQueryClient();
  const form = useForm<ChangePasswordValues>({
    resolver: valibotResolver(changePasswordForm),
    // Run every check, so 'Passwords must match' shows even while another field is still invalid.
    criteriaMode: 'all',
    defaultValues: EMPTY,
  });
  const change = useMutation({
    mutationFn: (values: ChangePasswordValues) =>
      usersApi.changePassword({
        current_password: values.current_password,
        new_password: values.new_password,
      }),
    onSuccess: (answer) => {
      form.reset(EMPTY);
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: userKeys.sessions() });
    },
    onError: (error) => {
      if (!applyServerErrors(error, form.setError, ['current_password', 'new_password'])) {
        toast.error(errorMessage(error, 'Failed to change password'));
      }
    },
  });

  return (
    <form
      className="max-w-md space-y-4"
      noValidate
      onSubmit={form.handleSubmit((values) => change.mutate(values))}
    >
      <PasswordField label="Current password" {...fieldProps(form, 'current_password')} />
      <NewPasswordFields
        password={{ ...fieldProps(form, 'new_password'), hint: 'At least 8 characters.' }}
        confirm={fieldProps(form, 'confirmPassword')}
      />
      <Button type="submit" busy={change.isPending}>
        Change password
      </Button>
    </form>
  );
}
