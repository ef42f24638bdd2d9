import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import * as v from 'valibot';
import {
  adminApproveVerificationBody,
  adminRejectVerificationBody,
  adminRetriggerVerificationBody,
  type AdminRejectVerificationBody,
  type AdminRetriggerVerificationBody,
} from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys } from '../../api/admin';

import { fieldProps } from '../../components/forms/field-props';
import { CheckboxField, FormError, TextField } from '../../components/ui/field';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { FormActions } from './form-ui';
import { TextAreaField } from './textarea-field';

export type VerificationAction = 'approve' | 'reject' | 'retrigger';

const PAST: Record<VerificationAction, string> = {
  approve: 'approved',
  reject: 'rejected',
  retrigger: 'retriggered',
};
const TITLES: Record<VerificationAction, string> = {
  approve: 'Approve verification',
  reject: 'Reject verification',
  retrigger: 'Retrigger verification',
};

/** The approve form: the override box is text, so a blank one is "not sent" and anything else must be 0…1. */
const approveForm = v.object({
  reviewer_notes: adminApproveVerificationBody.entries.reviewer_notes,
  confidence_override: v.pipe(
    v.string(),
    v.transform((value): number | null | undefined => (value.trim() === '' ? undefined : Number(value))),
    adminApproveVerificationBody.entries.confidence_override,
  ),
});
type ApproveInput = v.InferInput<typeof approveForm>;
type ApproveOutput = v.InferOutput<typeof approveForm>;

function useAction(action: VerificationAction, verificationId: string, onDone: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: unknown) => {
      if (action === 'approve') return adminApi.approveVerification(verificationId, body as ApproveOutput);
      if (action === 'reject')
        return adminApi.rejectVerification(verificationId, body as AdminRejectVerificationBody);
      return adminApi.retriggerVerification(verificationId, body as AdminRetriggerVerificationBody);
    },
    onSuccess: async () => {
      // spec 02 §4: after an action the list reloads and an alert says "Verification {action}d successfully".
      toast.success(`Verification ${PAST[action]} successfully`);
      onDone();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
}

/**
 * spec 02 §2 "Action modal for Approve, Reject or Retrigger", with the validation of §5, shown inside the details
 * dialog under the case and its media (issue 25 item 11), so that the reviewer decides with the evidence in view.
 */
export function VerificationActionForm({
  action,
  verificationId,
  onDone,
  onCancel,
}: {
  action: VerificationAction;
  verificationId: string;
  onDone(): void;
  onCancel(): void;
}) {
  return (
    <section aria-labelledby="decision-heading" className="space-y-3 rounded-lg border border-slate-200 p-4">
      <h3 id="decision-heading" className="font-semibold text-slate-900">
        {TITLES[action]}
      </h3>
      {action === 'approve' ? (
        <ApproveForm verificationId={verificationId} onDone={onDone} onCancel={onCancel} />
      ) : null}
      {action === 'reject' ? (
        <RejectForm verificationId={verificationId} onDone={onDone} onCancel={onCancel} />
      ) : null}
      {action === 'retrigger' ? (
        <RetriggerForm verificationId={verificationId} onDone={onDone} onCancel={onCancel} />
      ) : null}
    </section>
  );
}

interface FormProps {
  verificationId: string;
  onDone(): void;
  onCancel(): void;
}

function failureText(action: VerificationAction, error: unknown) {
  return adminErrorMessage(error, `Failed to ${action} verification`);
}

function ApproveForm({ verificationId, onDone, onCancel }: FormProps) {
  const form = useForm<ApproveInput, unknown, ApproveOutput>({
    resolver: valibotResolver(approveForm),
    defaultValues: { reviewer_notes: '', confidence_override: '' },
  });
  const mutation = useAction('approve', verificationId, onDone);
  const onSubmit = form.handleSubmit((values) =>
    mutation.mutate(
      values.confidence_override === undefined || values.confidence_override === null
        ? { reviewer_notes: values.reviewer_notes }
        : values,
      {
        onError: (error) => {
          applyServerErrors(error, form.setError, ['reviewer_notes', 'confidence_override']);
        },
      },
    ),
  );
  return (
    <form className="space-y-4" noValidate onSubmit={onSubmit}>
      <FormError message={mutation.isError ? failureText('approve', mutation.error) : null} />
      <TextAreaField label="Reviewer notes" {...fieldProps(form, 'reviewer_notes')} />
      <TextField
        label="Confidence override (optional)"
        type="number"
        inputMode="decimal"
        min={0}
        max={1}
        step={0.01}
        hint="A number from 0.0 to 1.0; leave empty to keep the analysis' confidence."
        {...fieldProps(form, 'confidence_override')}
      />
      <FormActions label="Approve" busy={mutation.isPending} onCancel={onCancel} />
    </form>
  );
}

function RejectForm({ verificationId, onDone, onCancel }: FormProps) {
  const form = useForm<AdminRejectVerificationBody>({
    resolver: valibotResolver(adminRejectVerificationBody),
    defaultValues: { rejection_reason: '' },
  });
  const mutation = useAction('reject', verificationId, onDone);
  const onSubmit = form.handleSubmit((values) =>
    mutation.mutate(
      { rejection_reason: values.rejection_reason },
      {
        onError: (error) => {
          applyServerErrors(error, form.setError, ['rejection_reason']);
        },
      },
    ),
  );
  return (
    <form className="space-y-4" noValidate onSubmit={onSubmit}>
      <FormError message={mutation.isError ? failureText('reject', mutation.error) : null} />
      <TextAreaField
        label="Rejection reason"
        hint="The user is told this reason by mail; it is also kept in the review notes."
        {...fieldProps(form, 'rejection_reason')}
      />
      <FormActions label="Reject" busy={mutation.isPending} onCancel={onCancel} />
    </form>
  );
}

function RetriggerForm({ verificationId, onDone, onCancel }: FormProps) {
  const form = useForm<AdminRetriggerVerificationBody>({
    resolver: valibotResolver(adminRetriggerVerificationBody),
    defaultValues: { force_reprocess: false, notes: '' },
  });
  const mutation = useAction('retrigger', verificationId, onDone);
  const onSubmit = form.handleSubmit((values) =>
    mutation.mutate(values, {
      onError: (error) => {
        applyServerErrors(error, form.setError, ['notes']);
      },
    }),
  );
  return (
    <form className="space-y-4" noValidate onSubmit={onSubmit}>
      <FormError message={mutation.isError ? failureText('retrigger', mutation.error) : null} />
      <CheckboxField label="Force reprocess (bypass cache)" {...form.register('force_reprocess')} />
      <TextAreaField label="Notes (optional)" {...fieldProps(form, 'notes')} />
      <FormActions label="Retrigger" busy={mutation.isPending} onCancel={onCancel} />
    </form>
  );
}
