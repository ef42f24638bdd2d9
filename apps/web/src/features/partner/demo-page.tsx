import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { SCOPES, type Scope, type SiteView } from '@attestly/contracts';
import {
  ConsentError,
  exchangeCode,
  fetchUserInfo,
  openConsentPopup,
  type ConsentResult,
} from '../../../../sdk/src/browser';
import { errorMessage } from '../../api/client';
import { partnerApi, partnerKeys, partnerSitesQueryOptions } from '../../api/partner';
import { Button } from '../../components/ui/button';
import { CheckboxField, SelectField, TextField } from '../../components/ui/field';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';
import { browserSample } from './code-samples';
import { Badge, CodeSample, PageTitle, Panel } from './ui';

export const DEMO_CALLBACK_PATH = '/partner/demo-callback';

interface DemoOutcome {
  ok: boolean;
  result?: ConsentResult;
  claims?: Record<string, unknown>;
  error?: string;
  description?: string;
}

/** A site whose redirect URIs include this appliance's demo callback, so the popup can come back here. */
const demoRedirect = () => `${window.location.origin}${DEMO_CALLBACK_PATH}`;
const canDemo = (site: SiteView) => site.is_active && site.redirect_uris.includes(demoRedirect());

/**
 * /partner/demo (spec 01 §2, §4 "Consent demo"): configure scopes, redirect URI and popup size and title, see the
 * code, and run the real consent popup against this appliance with one of your sites; the result (code, and for a
 * public site the claims) is shown. Approval → 'Demo verification completed!'; denial → 'Demo verification cancelled'.
 */
export function DemoPage() {
  useDocumentTitle('Integration demo');
  const queryClient = useQueryClient();
  const sites = useQuery(partnerSitesQueryOptions());
  const candidates = sites.data?.sites.filter(canDemo) ?? [];
  const [siteId, setSiteId] = useState('');
  const site = candidates.find((row) => row.id === siteId) ?? candidates[0] ?? null;
  const [scopes, setScopes] = useState<Scope[]>(['AGE_18']);
  const [width, setWidth] = useState(500);
  const [height, setHeight] = useState(700);
  const [title, setTitle] = useState('Verify with Attestly');
  const [outcome, setOutcome] = useState<DemoOutcome | null>(null);

  const createDemoSite = useMutation({
    mutationFn: () =>
      partnerApi.createSite({
        site_name: 'Attestly demo',
        domain: window.location.host,
        redirect_uris: [demoRedirect()],
        allowed_scopes: [...SCOPES],
        description: 'Used by the portal demo; its verifications are sandbox verifications.',
        client_type: 'public',
        sandbox: true,
      }),
    onSuccess: async () => {
      toast.success('Site added successfully');
      await queryClient.invalidateQueries({ queryKey: partnerKeys.all });
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to add site')),
  });

  const run = useMutation({
    mutationFn: async (): Promise<DemoOutcome> => {
      if (!site) throw new Error('No demo site');
      const chosen = scopes.filter((scope) => site.allowed_scopes.includes(scope));
      const result = await openConsentPopup({
        baseUrl: window.location.origin,
        clientId: site.client_id,
        redirectUri: demoRedirect(),
        scopes: chosen,
        width,
        height,
        title,
      });
      if (site.client_type !== 'public') return { ok: true, result };
      const tokens = await exchangeCode(
        { baseUrl: window.location.origin, clientId: site.client_id },
        result,
      );
      const claims = await fetchUserInfo(window.location.origin, tokens.access_token);
      return { ok: true, result, claims };
    },
    onSuccess: async (value) => {
      setOutcome(value);
      toast.success('Demo verification completed!');
      await queryClient.invalidateQueries({ queryKey: partnerKeys.all });
    },
    onError: (error) => {
      if (
        error instanceof ConsentError &&
        (error.error === 'access_denied' || error.error === 'popup_closed')
      ) {
        setOutcome({ ok: false, error: error.error, description: error.errorDescription });
        toast.info('Demo verification cancelled');
        return;
      }
      setOutcome({
        ok: false,
        error: error instanceof ConsentError ? error.error : 'error',
        description: error instanceof Error ? error.message : String(error),
      });
      toast.error('Verification failed. Please try again.');
    },
  });

  return (
    <div className="space-y-6">
      <PageTitle title="Integration demo" />
      <Panel title="Configuration">
        {sites.isPending ? null : candidates.length === 0 ? (
          <div className="space-y-3 text-sm text-slate-800">
            <p>
              The demo needs a site that may return to this page ({demoRedirect()}). Create a sandbox demo
              site: its verifications are marked sandbox and never count toward your quota.
            </p>
            <Button busy={createDemoSite.isPending} onClick={() => createDemoSite.mutate()}>
              Create demo site
            </Button>
          </div>
        ) : (
          <div className="grid gap-4 md:grid-cols-2">
            <SelectField
              label="Site"
              value={site?.id ?? ''}
              onChange={(event) => setSiteId(event.target.value)}
            >
              {candidates.map((row) => (
                <option key={row.id} value={row.id}>
                  {row.site_name} ({row.client_type})
                </option>
              ))}
            </SelectField>
            <TextField label="Redirect URI" value={demoRedirect()} readOnly />
            <fieldset className="space-y-2 md:col-span-2">
              <legend className="text-sm font-medium text-slate-800">Scopes</legend>
              <CheckboxField label="basic_info (always asked)" checked disabled />
              {SCOPES.filter((scope) => scope !== 'basic_info').map((scope) => (
                <CheckboxField
                  key={scope}
                  label={scope}
                  disabled={!site?.allowed_scopes.includes(scope)}
                  checked={scopes.includes(scope)}
                  onChange={(event) =>
                    setScopes((current) =>
                      event.target.checked ? [...current, scope] : current.filter((item) => item !== scope),
                    )
                  }
                />
              ))}
            </fieldset>
            <TextField
              label="Popup width"
              type="number"
              min={320}
              max={1200}
              value={width}
              onChange={(event) => setWidth(Number(event.target.value) || 500)}
            />
            <TextField
              label="Popup height"
              type="number"
              min={400}
              max={1200}
              value={height}
              onChange={(event) => setHeight(Number(event.target.value) || 700)}
            />
            <TextField label="Popup title" value={title} onChange={(event) => setTitle(event.target.value)} />
            <div className="flex items-end">
              <Button busy={run.isPending} onClick={() => run.mutate()}>
                Start demo verification
              </Button>
            </div>
          </div>
        )}
      </Panel>
      <Panel title="Generated code">
        <CodeSample
          label="Demo code"
          code={browserSample(
            { baseUrl: window.location.origin, site, keyPrefix: null },
            { width, height, title, scopes, redirectUri: demoRedirect() },
          )}
        />
      </Panel>
      {outcome ? (
        <Panel title="Demo results">
          <div role="status" data-testid="demo-result" className="space-y-2 text-sm">
            <p>
              <Badge
                value={outcome.ok ? 'success' : 'failed'}
                label={outcome.ok ? 'Approved' : 'Not approved'}
              />
            </p>
            {outcome.result ? (
              <dl className="grid gap-1">
                <dt className="text-slate-600">Authorization code</dt>
                <dd className="font-mono text-xs break-all">{outcome.result.code}</dd>
                <dt className="text-slate-600">State</dt>
                <dd className="font-mono text-xs">{outcome.result.state}</dd>
                <dt className="text-slate-600">Scopes</dt>
                <dd>{outcome.result.scopes.join(', ')}</dd>
              </dl>
            ) : null}
            {outcome.claims ? (
              <pre className="overflow-x-auto rounded bg-slate-50 p-3 text-xs" data-testid="demo-claims">
                {JSON.stringify(outcome.claims, null, 2)}
              </pre>
            ) : null}
            {outcome.error ? (
              <p>
                {outcome.error}: {outcome.description}
              </p>
            ) : null}
          </div>
        </Panel>
      ) : null}
      <Panel title="Quick links">
        <ul className="flex flex-wrap gap-4 text-sm font-semibold text-indigo-700">
          <li>
            <Link to={'/partner/integration' as '/'}>Integration guide</Link>
          </li>
          <li>
            <Link to={'/docs/sdk' as '/docs'}>SDK reference</Link>
          </li>
          <li>
            <Link to={'/partner/dashboard' as '/'}>Dashboard</Link>
          </li>
        </ul>
      </Panel>
    </div>
  );
}
