import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { DEFAULT_SITE_SCOPES, SCOPES, createSiteBody, type Scope, type SiteView } from '@attestly/contracts';
import { ApiError, errorMessage } from '../../api/client';
import { partnerApi, partnerKeys } from '../../api/partner';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { CheckboxField, FormError, SelectField, TextField } from '../../components/ui/field';
import { toast } from '../../lib/toast';

export const SCOPE_TEXT: Record<Scope, string> = {
  basic_info: 'Basic information (required): a pairwise user identifier',
  profile: 'Name (the user may decline)',
  email: 'E-mail address (the user may decline)',
  AGE_12: 'Age 12 or over',
  AGE_16: 'Age 16 or over',
  AGE_18: 'Age 18 or over',
  AGE_21: 'Age 21 or over',
  location_verification: 'Verified location (country, state)',
  identity_verification: 'Verified identity',
};

/**
 * The add-site modal (spec 01 §2, §5): site name and domain required, one redirect URI per line (at least one, each
 * a valid URL within the domain), scopes defaulting to basic_info and AGE_18. The server's field errors are shown
 * beside the fields. Once added it closes; a new confidential site's secret goes to `onSecret`, to be shown once.
 */
export function AddSiteDialog({
  open,
  onOpenChange,
  onSecret,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  onSecret(site: SiteView): void;
}) {
  const queryClient = useQueryClient();
  const [siteName, setSiteName] = useState('');
  const [domain, setDomain] = useState('');
  const [redirects, setRedirects] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([...DEFAULT_SITE_SCOPES]);
  const [description, setDescription] = useState('');
  const [clientType, setClientType] = useState<'confidential' | 'public'>('confidential');
  const [sandbox, setSandbox] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: partnerApi.createSite,
    onSuccess: async (site) => {
      toast.success('Site added successfully');
      await queryClient.invalidateQueries({ queryKey: partnerKeys.all });
      setSiteName('');
      setDomain('');
      setRedirects('');
      setScopes([...DEFAULT_SITE_SCOPES]);
      setDescription('');
      onOpenChange(false);
      if (site.client_secret) onSecret(site);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.errors.length) {
        setErrors(Object.fromEntries(error.errors.map((item) => [item.path.split('.')[0], item.message])));
      }
      const message = errorMessage(error, 'Failed to add site');
      setFailure(message);
      toast.error(message);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const body = {
      site_name: siteName,
      domain,
      redirect_uris: redirects
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
      allowed_scopes: scopes,
      description,
      client_type: clientType,
      sandbox,
    };
    const parsed = v.safeParse(createSiteBody, body);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.issues) {
        const path = String(issue.path?.[0]?.key ?? 'form');
        found[path] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    create.mutate(body);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Add site" size="xl">
      <form className="space-y-4" noValidate onSubmit={submit}>
        <FormError message={failure} />
        <TextField
          label="Site name"
          value={siteName}
          onChange={(event) => setSiteName(event.target.value)}
          error={errors.site_name}
        />
        <TextField
          label="Domain"
          placeholder="shop.example.com"
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
          error={errors.domain}
          hint="Redirect URIs must be on this domain or its subdomains."
        />
        <div className="space-y-1">
          <label htmlFor="redirect-uris" className="block text-sm font-medium text-slate-800">
            Redirect URIs (one per line)
          </label>
          <textarea
            id="redirect-uris"
            rows={3}
            value={redirects}
            placeholder="https://shop.example.com/callback"
            onChange={(event) => setRedirects(event.target.value)}
            aria-invalid={errors.redirect_uris ? true : undefined}
            aria-describedby={errors.redirect_uris ? 'redirect-uris-error' : undefined}
            className="block w-full rounded-lg border border-slate-300 px-3 py-2 font-mono text-sm"
          />
          {errors.redirect_uris ? (
            <p id="redirect-uris-error" className="text-sm text-red-700">
              {errors.redirect_uris}
            </p>
          ) : null}
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">Allowed scopes</legend>
          {SCOPES.map((scope) => (
            <CheckboxField
              key={scope}
              label={`${scope} — ${SCOPE_TEXT[scope]}`}
              checked={scope === 'basic_info' || scopes.includes(scope)}
              disabled={scope === 'basic_info'}
              onChange={(event) =>
                setScopes((current) =>
                  event.target.checked ? [...current, scope] : current.filter((item) => item !== scope),
                )
              }
            />
          ))}
        </fieldset>
        <TextField
          label="Description (optional)"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          error={errors.description}
        />
        <SelectField
          label="Client type"
          value={clientType}
          onChange={(event) => setClientType(event.target.value as 'confidential' | 'public')}
        >
          <option value="confidential">Confidential (server with a client secret)</option>
          <option value="public">Public (browser or mobile app, PKCE only)</option>
        </SelectField>
        <CheckboxField
          label="Sandbox site: allows http://localhost redirect URIs; its verifications never count"
          checked={sandbox}
          onChange={(event) => setSandbox(event.target.checked)}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" busy={create.isPending}>
            Add site
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
