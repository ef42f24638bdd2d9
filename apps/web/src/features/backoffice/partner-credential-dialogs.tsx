import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type * as v from 'valibot';
import { ADMIN_SITE_SCOPES, DEFAULT_SITE_SCOPES, adminCreateSiteBody } from '@attestly/contracts';
import { adminApi, adminErrorMessage } from '../../api/admin';
import { fieldProps } from '../../components/forms/field-props';
import { Dialog } from '../../components/ui/dialog';
import { CheckboxField, FormError, TextField } from '../../components/ui/field';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { SecretShownOnce } from './copy-and-done';
import { FormActions } from './form-ui';
import { TextAreaField } from './textarea-field';
import { usePartnerRefresh } from './use-partner-refresh';

/** A dialog about one partner that hands out a credential. */
interface CredentialDialogProps {
  partnerId: string;
  open: boolean;
  onClose(): void;
}

/**
 * The credential the dialog's action answered, shown once, and the close that forgets it and the action's state,
 * so that the dialog opens again at its first step.
 */
function useShownOnce<T>(onClose: () => void) {
  const [shown, show] = useState<T | null>(null);
  const closeAfter = (action: { reset(): void }) => () => {
    show(null);
    action.reset();
    onClose();
  };
  return { shown, show, closeAfter };
}

/** spec 02 §2: regenerating warns that the current key is invalidated; the new key is shown once. */
export function RegenerateKeyDialog({ partnerId, open, onClose }: CredentialDialogProps) {
  const refresh = usePartnerRefresh(partnerId);
  const { shown: key, show, closeAfter } = useShownOnce<string>(onClose);
  const regenerate = useMutation({
    mutationFn: () => adminApi.regenerateApiKey(partnerId),
    onSuccess: async (answer) => {
      show(answer.api_key);
      await refresh();
    },
  });
  const close = closeAfter(regenerate);
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
        <SecretShownOnce value={key} testId="new-api-key" copyLabel="Copy key" onDone={close} />
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
export function CreateSiteDialog({ partnerId, open, onClose }: CredentialDialogProps) {
  const refresh = usePartnerRefresh(partnerId);
  const { shown: secret, show, closeAfter } = useShownOnce<{ clientId: string; secret: string }>(onClose);
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
  const create = useMutation({
    mutationFn: (body: v.InferOutput<typeof adminCreateSiteBody>) => adminApi.createSite(partnerId, body),
    onSuccess: async (site) => {
      toast.success('Site created successfully');
      form.reset();
      if (site.client_secret) show({ clientId: site.client_id, secret: site.client_secret });
      else onClose();
      await refresh();
    },
    onError: (error) => {
      applyServerErrors(error, form.setError, ['site_name', 'domain', 'description', 'redirect_uris']);
    },
  });
  const close = closeAfter(create);
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
        <SecretShownOnce value={secret.secret} copyLabel="Copy secret" onDone={close}>
          <p className="text-sm">
            Client ID: <code className="break-all">{secret.clientId}</code>
          </p>
        </SecretShownOnce>
      ) : (
        <form className="space-y-4" noValidate onSubmit={form.handleSubmit((body) => create.mutate(body))}>
          <FormError
            message={create.isError ? adminErrorMessage(create.error, 'Failed to create site') : null}
          />
          <TextField label="Site name" {...fieldProps(form, 'site_name')} />
          <TextField label="Domain" placeholder="example.com" {...fieldProps(form, 'domain')} />
          <TextAreaField label="Description (optional)" {...fieldProps(form, 'description')} />
          <TextAreaField
            label="Redirect URIs"
            hint="One URI per line."
            placeholder="https://example.com/callback"
            {...fieldProps(form, 'redirect_uris')}
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
