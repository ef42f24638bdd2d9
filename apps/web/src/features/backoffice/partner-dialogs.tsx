import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import * as v from 'valibot';
import {
  ADMIN_PARTNER_PLANS,
  ADMIN_SITE_SCOPES,
  DEFAULT_SITE_SCOPES,
  PARTNER_INVITATION_DAYS,
  PARTNER_STATUSES,
  adminCreateSiteBody,
  adminUpdatePartnerBody,
  type AdminPartnerDetail,
  type AdminUpdatePartnerBody,
} from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys } from '../../api/admin';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { CheckboxField, FormError, SelectField, TextField } from '../../components/ui/field';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { FormActions, OptionList, optionsOf } from './form-ui';
import { planLabel, statusLabel } from './partners-page';
import { TextAreaField } from './textarea-field';

function useRefresh(partnerId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.partner(partnerId) }),
      queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'partners'] }),
    ]);
}

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
  const refresh = useRefresh(partner.id);
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
  const { errors } = form.formState;
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
        <TextField
          label="Contact name"
          error={errors.contact_name?.message}
          {...form.register('contact_name')}
        />
        <SelectField label="Status" error={errors.status?.message} {...form.register('status')}>
          <OptionList options={optionsOf(PARTNER_STATUSES, statusLabel)} />
        </SelectField>
        <SelectField label="Plan" error={errors.plan?.message} {...form.register('plan')}>
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
  const refresh = useRefresh(partnerId);
  const form = useForm<v.InferOutput<typeof actionForm>>({
    resolver: valibotResolver(actionForm),
    defaultValues: { reason: '', notify_partner: true },
  });
  const { errors } = form.formState;
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
          <TextAreaField
            label="Reason (optional)"
            error={errors.reason?.message}
            {...form.register('reason')}
          />
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

/** Copy (a secret shown once, with a fallback message when the clipboard is refused) and Done. */
export function CopyAndDone({ value, label, onDone }: { value: string; label: string; onDone(): void }) {
  return (
    <div className="flex justify-end gap-2">
      <Button
        variant="secondary"
        onClick={() =>
          void navigator.clipboard
            .writeText(value)
            .then(() => toast.success('Copied'))
            .catch(() => toast.error('Copy failed: select the text and copy it by hand'))
        }
      >
        {label}
      </Button>
      <Button onClick={onDone}>Done</Button>
    </div>
  );
}

/** spec 02 §2: regenerating warns that the current key is invalidated; the new key is shown once. */
export function RegenerateKeyDialog({
  partnerId,
  open,
  onClose,
}: {
  partnerId: string;
  open: boolean;
  onClose(): void;
}) {
  const refresh = useRefresh(partnerId);
  const [key, setKey] = useState<string | null>(null);
  const regenerate = useMutation({
    mutationFn: () => adminApi.regenerateApiKey(partnerId),
    onSuccess: async (answer) => {
      setKey(answer.api_key);
      await refresh();
    },
  });
  const close = () => {
    setKey(null);
    regenerate.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? undefined : close())}
      title={key ? 'New API key' : 'Regenerate API Key'}
      description={
        key
          ? 'Copy the key now: it is shown only once and cannot be shown again.'
          : 'The current API key will be invalidated immediately: integrations using it stop working until they use the new key. Continue?'
      }
    >
      {key ? (
        <div className="space-y-4">
          <code
            data-testid="new-api-key"
            className="block rounded bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900"
          >
            {key}
          </code>
          <CopyAndDone value={key} label="Copy key" onDone={close} />
        </div>
      ) : (
        <div className="space-y-4">
          <FormError
            message={
              regenerate.isError ? adminErrorMessage(regenerate.error, 'Failed to regenerate API key') : null
            }
          />
          <FormActions
            label="Regenerate"
            variant="danger"
            busy={regenerate.isPending}
            onCancel={close}
            onConfirm={() => regenerate.mutate()}
          />
        </div>
      )}
    </Dialog>
  );
}

type SiteValues = v.InferInput<typeof adminCreateSiteBody>;

/** spec 02 §5 "Create Site": name, domain and redirect URIs (one per line) required; scopes basic_info and AGE_18. */
export function CreateSiteDialog({
  partnerId,
  open,
  onClose,
}: {
  partnerId: string;
  open: boolean;
  onClose(): void;
}) {
  const refresh = useRefresh(partnerId);
  const [secret, setSecret] = useState<{ clientId: string; secret: string } | null>(null);
  const form = useForm<SiteValues, unknown, v.InferOutput<typeof adminCreateSiteBody>>({
    resolver: valibotResolver(adminCreateSiteBody),
    defaultValues: {
      site_name: '',
      domain: '',
      description: '',
      redirect_uris: '',
      allowed_scopes: [...DEFAULT_SITE_SCOPES],
    },
  });
  const { errors } = form.formState;
  const create = useMutation({
    mutationFn: (body: v.InferOutput<typeof adminCreateSiteBody>) => adminApi.createSite(partnerId, body),
    onSuccess: async (site) => {
      toast.success('Site created successfully');
      form.reset();
      if (site.client_secret) setSecret({ clientId: site.client_id, secret: site.client_secret });
      else onClose();
      await refresh();
    },
    onError: (error) => {
      applyServerErrors(error, form.setError, ['site_name', 'domain', 'description', 'redirect_uris']);
    },
  });
  const close = () => {
    setSecret(null);
    create.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? undefined : close())}
      title={secret ? 'Site credentials' : 'Create Site'}
      description={
        secret ? 'Copy the client secret now: it is shown only once and cannot be shown again.' : undefined
      }
    >
      {secret ? (
        <div className="space-y-4 text-sm">
          <p>
            Client ID: <code className="break-all">{secret.clientId}</code>
          </p>
          <code className="block rounded bg-slate-100 px-3 py-2 font-mono break-all text-slate-900">
            {secret.secret}
          </code>
          <CopyAndDone value={secret.secret} label="Copy secret" onDone={close} />
        </div>
      ) : (
        <form className="space-y-4" noValidate onSubmit={form.handleSubmit((body) => create.mutate(body))}>
          <FormError
            message={create.isError ? adminErrorMessage(create.error, 'Failed to create site') : null}
          />
          <TextField label="Site name" error={errors.site_name?.message} {...form.register('site_name')} />
          <TextField
            label="Domain"
            placeholder="example.com"
            error={errors.domain?.message}
            {...form.register('domain')}
          />
          <TextAreaField
            label="Description (optional)"
            error={errors.description?.message}
            {...form.register('description')}
          />
          <TextAreaField
            label="Redirect URIs"
            hint="One URI per line."
            placeholder="https://example.com/callback"
            error={errors.redirect_uris?.message}
            {...form.register('redirect_uris')}
          />
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">Allowed scopes</legend>
            {ADMIN_SITE_SCOPES.map((scope) => (
              <CheckboxField
                key={scope}
                label={scope === 'basic_info' ? 'basic_info (required)' : scope}
                value={scope}
                disabled={scope === 'basic_info'}
                defaultChecked={scope === 'basic_info' ? true : undefined}
                {...(scope === 'basic_info' ? {} : form.register('allowed_scopes'))}
              />
            ))}
          </fieldset>
          <FormActions label="Create Site" busy={create.isPending} onCancel={close} />
        </form>
      )}
    </Dialog>
  );
}

/**
 * How an account created in the back office gets its first password (issue 25 item 4): shown once here, or chosen by
 * its owner through an invitation mail.
 */
export function SignInChoice({
  who,
  mailedTo,
  registration,
}: {
  who: 'person' | 'partner';
  /** Where the invitation goes, as the sentence names it ("" for the account's own address). */
  mailedTo: string;
  registration: UseFormRegisterReturn;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">How the {who} signs in</legend>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="radio" className="mt-1 size-4" value="show_password" {...registration} />
        <span>Show a one-time password now, to copy and hand over</span>
      </label>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="radio" className="mt-1 size-4" value="send_invitation" {...registration} />
        <span>
          Send an invitation mail{mailedTo}, with a link to choose a password (valid {PARTNER_INVITATION_DAYS}{' '}
          days)
        </span>
      </label>
    </fieldset>
  );
}
