import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { adminCreateUserBody, type AdminCreateUserBody } from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys } from '../../api/admin';
import { Dialog } from '../../components/ui/dialog';
import { FormError, TextField } from '../../components/ui/field';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { FormActions } from './form-ui';
import { CopyAndDone } from './copy-and-done';
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
  const { errors } = form.formState;
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
        <div className="space-y-4">
          <p className="text-sm text-slate-800">
            The person signs in at /login with their e-mail address and this first password. Copy it now and
            hand it over securely: it is shown only once.
          </p>
          <code
            data-testid="user-temporary-password"
            className="block rounded bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900"
          >
            {created.password}
          </code>
          <CopyAndDone value={created.password} label="Copy password" onDone={close} />
        </div>
      ) : (
        <form className="space-y-4" noValidate onSubmit={form.handleSubmit((values) => add.mutate(values))}>
          <FormError message={add.isError ? adminErrorMessage(add.error, 'Failed to add user') : null} />
          <TextField
            label="Email"
            type="email"
            autoComplete="off"
            error={errors.email?.message}
            {...form.register('email')}
          />
          <TextField
            label="Full name"
            autoComplete="off"
            error={errors.full_name?.message}
            {...form.register('full_name')}
          />
          <SignInChoice who="person" mailedTo={''} registration={form.register('sign_in')} />
          <FormActions label="Add User" busy={add.isPending} onCancel={onClose} />
        </form>
      )}
    </Dialog>
  );
}
