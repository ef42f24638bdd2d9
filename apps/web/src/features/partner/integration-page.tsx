import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { apiKeysQueryOptions, partnerApi, partnerSitesQueryOptions } from '../../api/partner';
import { sdkDownloadsQueryOptions } from '../../api/site';
import { Button } from '../../components/ui/button';
import { SelectField } from '../../components/ui/field';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';
import {
  browserSample,
  installSample,
  restSample,
  serverSample,
  webhookSample,
  type SampleContext,
} from './code-samples';
import { Badge, CodeSample, PageTitle, Panel } from './ui';

const TABS = ['JavaScript SDK', 'REST API', 'Webhooks'] as const;

/**
 * /partner/integration (spec 01 §2): Quick Start, a real integration test of the chosen site, and code generated for
 * this partner's site and keys.
 */
export function IntegrationPage() {
  useDocumentTitle('Integration');
  const sites = useQuery(partnerSitesQueryOptions());
  const keys = useQuery(apiKeysQueryOptions());
  const sdk = useQuery(sdkDownloadsQueryOptions());
  const [siteId, setSiteId] = useState<string>('');
  const [tab, setTab] = useState<(typeof TABS)[number]>('JavaScript SDK');
  const site = sites.data?.sites.find((row) => row.id === siteId) ?? sites.data?.sites[0] ?? null;
  const context: SampleContext = {
    baseUrl: window.location.origin,
    site,
    keyPrefix: keys.data?.api_keys[0]?.prefix ?? null,
  };
  const test = useMutation({
    mutationFn: () => partnerApi.testIntegration(site?.id ?? ''),
    onSuccess: (result) =>
      result.success ? toast.success(result.message) : toast.error('Integration test failed'),
    onError: (error) => toast.error(errorMessage(error, 'Integration test failed')),
  });

  return (
    <div className="space-y-6">
      <PageTitle title="Integration" />
      <Panel title="Quick Start">
        <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-800">
          <li>
            <Link to={'/partner/management' as '/'} className="font-semibold text-indigo-700">
              Add a site
            </Link>{' '}
            with your domain and redirect URIs; keep the client secret it shows once.
          </li>
          <li>Create an API key (sandbox first) for your server.</li>
          <li>Open the consent popup with the browser SDK, or send people to /oauth2/authorize.</li>
          <li>Exchange the code on your server and read the claims; validate tokens with your API key.</li>
          <li>Run the integration test below, then try the live demo.</li>
        </ol>
      </Panel>
      <Panel title="Test Integration">
        {sites.data && sites.data.sites.length === 0 ? (
          <p className="text-sm text-slate-700">Add a site first: the test checks a site’s configuration.</p>
        ) : (
          <div className="space-y-4">
            <div className="flex flex-wrap items-end gap-3">
              <div className="min-w-[16rem]">
                <SelectField
                  label="Site"
                  value={site?.id ?? ''}
                  onChange={(event) => setSiteId(event.target.value)}
                >
                  {sites.data?.sites.map((row) => (
                    <option key={row.id} value={row.id}>
                      {row.site_name} ({row.domain})
                    </option>
                  ))}
                </SelectField>
              </div>
              <Button busy={test.isPending} disabled={!site} onClick={() => test.mutate()}>
                Test Integration
              </Button>
            </div>
            {test.data ? (
              <div role="status" className="space-y-2">
                <p className="font-semibold">
                  <Badge
                    value={test.data.success ? 'success' : 'failed'}
                    label={test.data.success ? 'Passed' : 'Failed'}
                  />{' '}
                  {test.data.message} — {test.data.details.responseTime} ms
                </p>
                <ul className="divide-y divide-slate-100 text-sm">
                  {test.data.checks.map((check) => (
                    <li key={check.name} className="flex flex-wrap justify-between gap-2 py-2">
                      <span>
                        {check.ok ? '✓' : '✗'} <strong>{check.name}</strong>: {check.detail}
                      </span>
                      <span className="text-slate-600">{check.duration_ms} ms</span>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </div>
        )}
      </Panel>
      <Panel title="Code">
        <div role="tablist" aria-label="Integration samples" className="mb-4 flex gap-2">
          {TABS.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={tab === name}
              onClick={() => setTab(name)}
              className={`rounded-lg px-3 py-1.5 text-sm font-semibold ${tab === name ? 'bg-indigo-700 text-white' : 'bg-slate-100 text-slate-800'}`}
            >
              {name}
            </button>
          ))}
        </div>
        <div role="tabpanel" className="space-y-4">
          {tab === 'JavaScript SDK' ? (
            <>
              <CodeSample
                label="Install (served by this appliance)"
                code={installSample(context.baseUrl, sdk.data?.install)}
              />
              <CodeSample label="Browser: consent popup" code={browserSample(context)} />
              <CodeSample label="Server: is this user 18 or over?" code={serverSample(context)} />
            </>
          ) : null}
          {tab === 'REST API' ? <CodeSample label="REST API" code={restSample(context)} /> : null}
          {tab === 'Webhooks' ? <CodeSample label="Webhooks" code={webhookSample()} /> : null}
        </div>
        <ul className="mt-4 flex flex-wrap gap-4 text-sm font-semibold text-indigo-700">
          <li>
            <Link to="/docs">Documentation</Link>
          </li>
          <li>
            <Link to={'/docs/sdk' as '/docs'}>SDK reference</Link>
          </li>
          <li>
            <a href="/sdk/attestly-sdk-latest.tgz" download>
              Download the SDK
            </a>
          </li>
          <li>
            <Link to={'/partner/demo' as '/'}>Live demo</Link>
          </li>
        </ul>
      </Panel>
    </div>
  );
}
