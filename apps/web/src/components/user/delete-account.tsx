import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { deleteAccountForm } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { userKeys, usersApi } from '../../api/users';
import { tokens } from '../../auth/token-storage';
import { fieldProps } from '../forms/field-props';
import { PasswordField } from '../forms/fields';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { Button } from '../ui/button';
import { Dialog, DialogClose } from '../ui/dialog';

/** Deleting the account asks for the password in a confirmation dialog. */
export function DeleteAccount() {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<{ password: string }>({
    resolver: valibotResolver(deleteAccountForm),
    defaultValues: { password: '' },
  });
  const remove = useMutation({
    mutationFn: (password: string) => usersApi.deleteAccount(password),
    onSuccess: async () => {
      // Leave the user area before dropping the token: otherwise the user guard or a refetch answered 401 (the
      // session is gone on the server) would send the browser to /login instead of the public home page.
      await queryClient.cancelQueries();
      setOpen(false);
      await navigate({ to: '/', replace: true });
      tokens.clear('user');
      queryClient.removeQueries({ queryKey: userKeys.all });
      toast.success('Your account has been deleted');
    },
    onError: (error) => {
      if (!applyServerErrors(error, form.setError, ['password']))
        toast.error(errorMessage(error, 'Failed to delete account'));
    },
  });

  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-slate-700">
        Deletes your profile, verification results and sessions. This cannot be undone.
      </p>
      <Button variant="danger" className="shrink-0" onClick={() => setOpen(true)}>
        Delete account
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) form.reset();
        }}
        title="Delete your account?"
        description="This permanently deletes your account. Enter your password to confirm."
      >
        <form
          className="space-y-4"
          noValidate
          onSubmit={form.handleSubmit((values) => remove.mutate(values.password))}
        >
          <PasswordField {...fieldProps(form, 'password')} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="secondary">Cancel</Button>
            </DialogClose>
            <Button type="submit" variant="danger" busy={remove.isPending}>
              Delete my account
            </Button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}
