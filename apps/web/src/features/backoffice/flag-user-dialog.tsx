import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { FLAG_PRIORITIES, adminFlagUserBody, type AdminFlagUserBody } from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys } from '../../api/admin';

import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { SelectField, TextField } from '../../components/ui/field';
import { TextAreaField } from './textarea-field';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';

/** spec 02 §5 "Flag User": reason required; priority low, medium (default), high or critical; notes optional. */
export function FlagUserDialog({
  userId,
  userLabel,
  onClose,
}: {
  userId: string | null;
  userLabel?: string;
  onClose(): void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<AdminFlagUserBody>({
    resolver: valibotResolver(adminFlagUserBody),
    defaultValues: { reason: '', priority: 'medium', reviewer_notes: '' },
  });
  const { errors } = form.formState;
  const flag = useMutation({
    mutationFn: (body: AdminFlagUserBody) => adminApi.flagUser(userId as string, body),
    onSuccess: async () => {
      toast.success('User flagged successfully');
      form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error) => {
      if (!applyServerErrors(error, form.setError, ['reason', 'priority', 'reviewer_notes'])) {
        toast.error(adminErrorMessage(error, 'Failed to flag user'));
      }
    },
  });
  return (
    <Dialog
      open={userId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Flag User"
      description={userLabel ? `Flag ${userLabel} for review.` : undefined}
    >
      <form className="space-y-4" noValidate onSubmit={form.handleSubmit((values) => flag.mutate(values))}>
        <TextField label="Reason" error={errors.reason?.message} {...form.register('reason')} />
        <SelectField label="Priority" error={errors.priority?.message} {...form.register('priority')}>
          {FLAG_PRIORITIES.map((priority) => (
            <option key={priority} value={priority}>
              {priority[0]?.toUpperCase()}
              {priority.slice(1)}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          label="Reviewer notes (optional)"
          error={errors.reviewer_notes?.message}
          {...form.register('reviewer_notes')}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" busy={flag.isPending}>
            Flag User
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
