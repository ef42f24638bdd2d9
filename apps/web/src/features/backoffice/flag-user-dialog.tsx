import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { FLAG_PRIORITIES, adminFlagUserBody, type AdminFlagUserBody } from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys } from '../../api/admin';

import { fieldProps } from '../../components/forms/field-props';
import { Dialog } from '../../components/ui/dialog';
import { SelectField, TextField } from '../../components/ui/field';
import { FormActions, OptionList, optionsOf } from './form-ui';
import { capitalize } from './format';
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
        <TextField label="Reason" {...fieldProps(form, 'reason')} />
        <SelectField label="Priority" {...fieldProps(form, 'priority')}>
          <OptionList options={optionsOf(FLAG_PRIORITIES, capitalize)} />
        </SelectField>
        <TextAreaField label="Reviewer notes (optional)" {...fieldProps(form, 'reviewer_notes')} />
        <FormActions label="Flag User" variant="danger" busy={flag.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
