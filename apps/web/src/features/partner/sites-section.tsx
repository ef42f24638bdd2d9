import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { SiteView } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { partnerApi, partnerKeys, partnerSitesQueryOptions } from '../../api/partner';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { QueryState } from '../../components/ui/query-state';
import { toast } from '../../lib/toast';
import { Badge, Panel, SecretOnce, copyText, formatDate } from './ui';

export const DELETE_SITE_CONFIRM = 'Are you sure you want to delete this site? This action cannot be undone.';

function SiteCard({ site, onSecret }: { site: SiteView; onSecret(site: SiteView): void }) {
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: partnerKeys.all });
  const remove = useMutation({
    mutationFn: () => partnerApi.deleteSite(site.id),
    onSuccess: async () => {
      toast.success('Site deleted successfully');
      await refresh();
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to delete site')),
  });
  const rotate = useMutation({
    mutationFn: () => partnerApi.rotateSecret(site.id),
    onSuccess: async (rotated) => {
      onSecret(rotated);
      await refresh();
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to rotate the client secret')),
  });
  const icon = useMutation({
    mutationFn: (file: File) => partnerApi.uploadIcon(site.id, file),
    onSuccess: async () => {
      toast.success('Icon updated');
      await refresh();
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to upload the icon')),
  });
  return (
    <li className="rounded-xl border border-slate-200 p-4" data-testid="site-card">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex items-center gap-3">
          {site.icon_url ? (
            <img
              src={site.icon_url}
              alt=""
              className="size-10 rounded-lg border border-slate-200 object-cover"
            />
          ) : (
            <div className="flex size-10 items-center justify-center rounded-lg bg-indigo-100 font-bold text-indigo-800">
              {site.site_name.charAt(0).toUpperCase()}
            </div>
          )}
          <div>
            <h3 className="font-semibold text-slate-900">{site.site_name}</h3>
            <p className="text-sm text-slate-700">{site.domain}</p>
          </div>
        </div>
        <div className="flex flex-wrap gap-1">
          <Badge value={site.is_active ? 'active' : 'inactive'} />
          {site.sandbox ? <Badge value="sandbox" /> : null}
        </div>
      </div>
      <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-600">Client ID</dt>
          <dd className="flex items-center gap-2">
            <code className="font-mono text-xs break-all">{site.client_id}</code>
            <button
              type="button"
              className="text-xs font-semibold text-indigo-700"
              onClick={() => void copyText(site.client_id)}
            >
              Copy
            </button>
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Client type</dt>
          <dd>
            {site.client_type === 'confidential' ? 'Confidential (client secret)' : 'Public (PKCE only)'}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Verifications</dt>
          <dd data-testid="site-verifications">{site.verification_count.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Active authorizations</dt>
          <dd>{site.oauth_authorizations.toLocaleString('en-US')}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-slate-600">Redirect URIs</dt>
          <dd>
            <ul className="font-mono text-xs">
              {site.redirect_uris.map((uri) => (
                <li key={uri} className="break-all">
                  {uri}
                </li>
              ))}
            </ul>
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-slate-600">Scopes</dt>
          <dd className="flex flex-wrap gap-1">
            {site.allowed_scopes.map((scope) => (
              <Badge key={scope} value="info" label={scope} />
            ))}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Created</dt>
          <dd>{formatDate(site.created_at)}</dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-wrap gap-2">
        <input
          ref={fileInput}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          className="sr-only"
          aria-label={`Icon for ${site.site_name}`}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) icon.mutate(file);
            event.target.value = '';
          }}
        />
        <Button variant="secondary" busy={icon.isPending} onClick={() => fileInput.current?.click()}>
          Upload icon
        </Button>
        {site.client_type === 'confidential' ? (
          <Button
            variant="secondary"
            busy={rotate.isPending}
            onClick={() => {
              if (window.confirm('Rotate the client secret? The current secret stops working at once.'))
                rotate.mutate();
            }}
          >
            Rotate secret
          </Button>
        ) : null}
        <Button
          variant="danger"
          busy={remove.isPending}
          onClick={() => {
            if (window.confirm(DELETE_SITE_CONFIRM)) remove.mutate();
          }}
        >
          Delete
        </Button>
      </div>
    </li>
  );
}

/** The site list of the management page, with the one-time client secret dialog. */
export function SitesSection({
  secretSite,
  onSecret,
}: {
  secretSite: SiteView | null;
  onSecret(site: SiteView | null): void;
}) {
  const sites = useQuery(partnerSitesQueryOptions());
  return (
    <Panel title="Sites" id="sites">
      <QueryState query={sites} loadingLabel="Loading sites…" errorFallback="Failed to load sites">
        {(data) =>
          data.sites.length === 0 ? (
            <p className="text-sm text-slate-700">
              No sites yet. Add one to get a client ID for OpenID Connect.
            </p>
          ) : (
            <ul className="space-y-4">
              {data.sites.map((site) => (
                <SiteCard key={site.id} site={site} onSecret={onSecret} />
              ))}
            </ul>
          )
        }
      </QueryState>
      <Dialog
        open={!!secretSite?.client_secret}
        onOpenChange={(open) => (open ? undefined : onSecret(null))}
        title="Client secret"
        description={`For ${secretSite?.site_name ?? 'your site'}: your server sends it to /oauth2/token with HTTP Basic authentication.`}
      >
        {secretSite?.client_secret ? (
          <SecretOnce label="Client secret" value={secretSite.client_secret} />
        ) : null}
      </Dialog>
    </Panel>
  );
}
