import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { adminCreateUserBody, type AdminCreateUserBody } from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys } from '../../api/admin';
import { fieldProps } from '../../components/forms/field-props';
import { EmailField, NameField } from '../../components/forms/fields';
import { Dialog } from '../../components/ui/dialog';
import { FormError } from '../../components/ui/field';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { FormActions } from './form-ui';
import { FirstPasswordShownOnce } from './copy-and-done';
import { SignInChoice } from './sign-in-choice';

/**
 * "Add User" (spec 02 §2, made real: issue 25 item 6). The person is mailed an invitation to choose a password
 * (default), or the administrator is shown a first password once to hand over. `onAdded` opens the new user.
 */
export function AddUserDialog({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose(): void;
  onAdded(userId: string): void;
}) {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<{ id: string; password: string } | null>(null);
  const form = useForm<AdminCreateUserBody>({
    resolver: valibotResolver(adminCreateUserBody),
    defaultValues: { email: '', full_name: '', sign_in: 'send_invitation' },
  });
  const finish = (id: string) => {
    setCreated(null);
    onClose();
    onAdded(id);
  };
  const add = useMutation({
    mutationFn: (body: AdminCreateUserBody) => adminApi.addUser(body),
    onSuccess: async (user) => {
      form.reset();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
      if (user.temporary_password) {
        toast.success('User added successfully');
        setCreated({ id: user.id, password: user.temporary_password });
        return;
      }
      toast.success(`User added; invitation sent to ${user.invitation_sent_to ?? user.email}`);
      finish(user.id);
    },
    onError: (error) => {
      applyServerErrors(error, form.setError, ['email', 'full_name']);
    },
  });
  const close = () => {
    if (created) finish(created.id);
    else onClose();
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : close())} title="Add User">
      {created ? (
        <FirstPasswordShownOnce
          password={created.password}
          testId="user-temporary-password"
          signsIn="The person signs in at /login with their e-mail address"
          onDone={close}
        />
      ) : (
        <form className="space-y-4" noValidate onSubmit={form.handleSubmit((values) => add.mutate(values))}>
          <FormError message={add.isError ? adminErrorMessage(add.error, 'Failed to add user') : null} />
          <EmailField autoComplete="off" {...fieldProps(form, 'email')} />
          <NameField autoComplete="off" {...fieldProps(form, 'full_name')} />
          <SignInChoice who="person" mailedTo={''} registration={form.register('sign_in')} />
          <FormActions label="Add User" busy={add.isPending} onCancel={onClose} />
        </form>
      )}
    </Dialog>
  );
}
