import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import * as v from 'valibot';
import {
  ADMIN_PARTNER_PLANS,
  PARTNER_STATUSES,
  adminUpdatePartnerBody,
  type AdminPartnerDetail,
  type AdminUpdatePartnerBody,
} from '@attestly/contracts';
import { adminApi, adminErrorMessage } from '../../api/admin';
import { fieldProps } from '../../components/forms/field-props';
import { Dialog } from '../../components/ui/dialog';
import { CheckboxField, FormError, SelectField, TextField } from '../../components/ui/field';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { FormActions, OptionList, optionsOf } from './form-ui';
import { planLabel, statusLabel } from './partners-page';
import { TextAreaField } from './textarea-field';
import { usePartnerRefresh } from './use-partner-refresh';

/** spec 02 §2 "Edit modal": contact name, status, plan (the four plans of §4). */
export function EditPartnerDialog({
  partner,
  open,
  onClose,
}: {
  partner: AdminPartnerDetail;
  open: boolean;
  onClose(): void;
}) {
  const refresh = usePartnerRefresh(partner.id);
  const plan = (ADMIN_PARTNER_PLANS as readonly string[]).includes(partner.plan)
    ? (partner.plan as AdminUpdatePartnerBody['plan'])
    : 'starter';
  const form = useForm<AdminUpdatePartnerBody>({
    resolver: valibotResolver(adminUpdatePartnerBody),
    values: {
      contact_name: partner.contact_name ?? '',
      status: partner.status as AdminUpdatePartnerBody['status'],
      plan,
    },
  });
  const save = useMutation({
    mutationFn: (body: AdminUpdatePartnerBody) => adminApi.updatePartner(partner.id, body),
    onSuccess: async () => {
      toast.success('Partner updated successfully');
      onClose();
      await refresh();
    },
    onError: (error) => {
      applyServerErrors(error, form.setError, ['contact_name', 'status', 'plan']);
    },
  });
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())} title="Edit Partner">
      <form className="space-y-4" noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <FormError
          message={save.isError ? adminErrorMessage(save.error, 'Failed to update partner') : null}
        />
        <TextField label="Contact name" {...fieldProps(form, 'contact_name')} />
        <SelectField label="Status" {...fieldProps(form, 'status')}>
          <OptionList options={optionsOf(PARTNER_STATUSES, statusLabel)} />
        </SelectField>
        <SelectField label="Plan" {...fieldProps(form, 'plan')}>
          <OptionList options={optionsOf(ADMIN_PARTNER_PLANS, planLabel)} />
        </SelectField>
        <FormActions label="Save changes" busy={save.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

export type StatusAction = 'deactivate' | 'approve' | 'suspend';

const ACTION_COPY: Record<StatusAction, { title: string; question: string; button: string; done: string }> = {
  deactivate: {
    title: 'Deactivate partner',
    question:
      'Are you sure you want to deactivate this partner? Its API keys and sites stop working until it is reactivated.',
    button: 'Deactivate',
    done: 'Partner deactivated successfully',
  },
  approve: {
    title: 'Approve partner',
    question: 'Approve this partner? Its account becomes active and its sites can be used.',
    button: 'Approve',
    done: 'Partner approved successfully',
  },
  suspend: {
    title: 'Suspend partner',
    question:
      'Are you sure you want to suspend this partner? Its API keys and sites stop working while suspended.',
    button: 'Suspend',
    done: 'Partner suspended successfully',
  },
};

const actionForm = v.object({
  reason: v.pipe(v.string(), v.maxLength(500, 'Must be at most 500 characters')),
  notify_partner: v.boolean(),
});

/** Deactivate (confirmation, spec 02 §2), and approve and suspend made real (issue 9): reason, notify by e-mail. */
export function PartnerStatusDialog({
  partnerId,
  action,
  onClose,
}: {
  partnerId: string;
  action: StatusAction | null;
  onClose(): void;
}) {
  const refresh = usePartnerRefresh(partnerId);
  const form = useForm<v.InferOutput<typeof actionForm>>({
    resolver: valibotResolver(actionForm),
    defaultValues: { reason: '', notify_partner: true },
  });
  const run = useMutation({
    mutationFn: ({ kind, body }: { kind: StatusAction; body: v.InferOutput<typeof actionForm> }) => {
      const payload = { reason: body.reason.trim() || null, notify_partner: body.notify_partner };
      if (kind === 'deactivate') return adminApi.deactivatePartner(partnerId, payload);
      if (kind === 'approve') return adminApi.approvePartner(partnerId, payload);
      return adminApi.suspendPartner(partnerId, payload);
    },
    onSuccess: async (_answer, { kind }) => {
      toast.success(ACTION_COPY[kind].done);
      form.reset();
      onClose();
      await refresh();
    },
  });
  const copy = action ? ACTION_COPY[action] : null;
  return (
    <Dialog
      open={action !== null}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={copy?.title ?? ''}
      description={copy?.question}
    >
      {action ? (
        <form
          className="space-y-4"
          noValidate
          onSubmit={form.handleSubmit((body) => run.mutate({ kind: action, body }))}
        >
          <FormError
            message={run.isError ? adminErrorMessage(run.error, `Failed to ${action} partner`) : null}
          />
          <TextAreaField label="Reason (optional)" {...fieldProps(form, 'reason')} />
          <CheckboxField label="Notify the partner by e-mail" {...form.register('notify_partner')} />
          <FormActions
            label={copy?.button}
            variant={action === 'approve' ? 'primary' : 'danger'}
            busy={run.isPending}
            onCancel={onClose}
          />
        </form>
      ) : null}
    </Dialog>
  );
}
