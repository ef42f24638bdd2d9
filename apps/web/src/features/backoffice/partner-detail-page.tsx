import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { ADMIN_MESSAGES, type AdminPartnerDetail } from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys, adminPartnerQueryOptions } from '../../api/admin';
import { ApiError } from '../../api/client';
import { Button } from '../../components/ui/button';
import { LoadingState } from '../../components/ui/query-state';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';
import { ConfirmDialog } from './confirm-dialog';
import { formatDateTime, formatDay } from './format';
import { CreateSiteDialog, RegenerateKeyDialog } from './partner-credential-dialogs';
import { EditPartnerDialog, PartnerStatusDialog, type StatusAction } from './partner-dialogs';
import { ErrorBox, StatGrid } from './list-ui';
import { Badge, Facts, Panel, PlanBadge, StatCard, StatusBadge } from './ui';
import { Tabs } from './tabs';

type Tab = 'overview' | 'sites' | 'statistics';
const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'sites', label: 'Sites' },
  { id: 'statistics', label: 'Statistics' },
] as const;

const BackLink = () => (
  <Link to="/backoffice/partners" className="text-sm font-semibold text-indigo-700 hover:text-indigo-900">
    ← Back to Partners
  </Link>
);

/** spec 02 §2 "Partner detail": header, actions, and the overview, sites and statistics tabs. */
export function PartnerDetailPage({ partnerId }: { partnerId: string }) {
  const partner = useQuery(adminPartnerQueryOptions(partnerId));
  useDocumentTitle(partner.data?.partner_name ?? 'Partner');
  const [tab, setTab] = useState<Tab>('overview');
  const [editing, setEditing] = useState(false);
  const [regenerating, setRegenerating] = useState(false);
  const [creatingSite, setCreatingSite] = useState(false);
  const [statusAction, setStatusAction] = useState<StatusAction | null>(null);
  const [deleting, setDeleting] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // Only a partner nobody has used can go; the server says why otherwise (spec 01 §8 "Failed to delete partner").
  const remove = useMutation({
    mutationFn: () => adminApi.deletePartner(partnerId),
    onSuccess: async () => {
      toast.success('Partner deleted successfully');
      setDeleting(false);
      await navigate({ to: '/backoffice/partners' });
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error) => {
      setDeleting(false);
      toast.error(adminErrorMessage(error, 'Failed to delete partner'));
    },
  });

  if (partner.isPending) return <LoadingState label="Loading partner…" />;
  if (partner.isError) {
    const message =
      partner.error instanceof ApiError && partner.error.status === 404
        ? ADMIN_MESSAGES.partnerNotFound
        : adminErrorMessage(partner.error, 'Failed to load partner data');
    return (
      <div className="space-y-4">
        <BackLink />
        <ErrorBox>{message}</ErrorBox>
      </div>
    );
  }
  const data = partner.data;
  return (
    <div className="space-y-6">
      <BackLink />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900">
            {data.partner_name}
          </h1>
          <StatusBadge status={data.status} />
          <PlanBadge plan={data.plan} />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setEditing(true)}>
            Edit Partner
          </Button>
          <Button variant="secondary" onClick={() => setRegenerating(true)}>
            Regenerate API Key
          </Button>
          {data.status === 'pending_verification' ? (
            <Button onClick={() => setStatusAction('approve')}>Approve</Button>
          ) : null}
          {data.status !== 'suspended' ? (
            <Button variant="secondary" onClick={() => setStatusAction('suspend')}>
              Suspend
            </Button>
          ) : null}
          {data.status === 'active' ? (
            <Button variant="danger" onClick={() => setStatusAction('deactivate')}>
              Deactivate
            </Button>
          ) : null}
          <Button variant="danger" onClick={() => setDeleting(true)}>
            Delete
          </Button>
        </div>
      </div>

      <Tabs<Tab> label="Partner sections" tabs={TABS} value={tab} onChange={setTab}>
        {tab === 'overview' ? <Overview partner={data} /> : null}
        {tab === 'sites' ? <Sites partner={data} onCreate={() => setCreatingSite(true)} /> : null}
        {tab === 'statistics' ? <Statistics partner={data} /> : null}
      </Tabs>

      <EditPartnerDialog partner={data} open={editing} onClose={() => setEditing(false)} />
      <RegenerateKeyDialog partnerId={data.id} open={regenerating} onClose={() => setRegenerating(false)} />
      <CreateSiteDialog partnerId={data.id} open={creatingSite} onClose={() => setCreatingSite(false)} />
      <PartnerStatusDialog partnerId={data.id} action={statusAction} onClose={() => setStatusAction(null)} />
      <ConfirmDialog
        open={deleting}
        title="Delete partner"
        message={`Delete ${data.partner_name} with its sites, API keys and webhooks? Only a partner nobody has used can be deleted; deactivate one that has been used. This cannot be undone.`}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setDeleting(false)}
      />
    </div>
  );
}

const or = (value: string | null | undefined, fallback: string): ReactNode => value || fallback;

function Overview({ partner }: { partner: AdminPartnerDetail }) {
  const address = partner.business_address;
  const hasAddress = address && Object.values(address).some(Boolean);
  const settings = partner.verification_settings;
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <Panel title="Basic information">
        <Facts
          items={[
            ['Partner name', partner.partner_name],
            ['Contact name', or(partner.contact_name, 'Not provided')],
            ['Contact email', partner.contact_email],
            ['Website', or(partner.website, 'Not provided')],
            ['Phone', or(partner.phone, 'Not provided')],
            ['Company type', or(partner.company_type, 'Not specified')],
          ]}
        />
      </Panel>
      <Panel title="API information">
        <Facts
          items={[
            // The server sends the key's shown prefix, already ending in "…".
            ['API key', partner.api_key ? <code key="key">{partner.api_key}</code> : 'No key'],
            ['Webhook URL', or(partner.webhook_url, 'Not configured')],
            [
              'Rate limits',
              partner.rate_limits
                ? [
                    `${partner.rate_limits.api_calls_per_hour.toLocaleString()} API calls per hour`,
                    partner.rate_limits.verification_requests_per_day === null
                      ? null
                      : `${partner.rate_limits.verification_requests_per_day.toLocaleString()} verifications per day`,
                    `${partner.rate_limits.verifications_per_month.toLocaleString()} verifications per month`,
                  ]
                    .filter(Boolean)
                    .join(', ')
                : 'Default limits',
            ],
          ]}
        />
      </Panel>
      {hasAddress ? (
        <Panel title="Business address">
          <Facts
            items={[
              ['Street', or(address.street, '—')],
              ['City', or(address.city, '—')],
              ['State', or(address.state, '—')],
              ['Postal code', or(address.postal_code, '—')],
              ['Country', or(address.country, '—')],
            ]}
          />
        </Panel>
      ) : null}
      <Panel title="Verification settings (from the partner's sites)">
        <Facts
          items={[
            ['Age verification required', settings.require_age_verification ? 'Yes' : 'No'],
            ['Location verification required', settings.require_location_verification ? 'Yes' : 'No'],
            [
              'Lowest age asked',
              settings.default_age_threshold === null
                ? 'No site asks an age'
                : `${settings.default_age_threshold}+`,
            ],
            [
              'Methods that can prove it',
              settings.allowed_verification_methods.map((method) => method.replace(/_/g, ' ')).join(', ') ||
                'None: no site asks for a proof',
            ],
          ]}
        />
      </Panel>
      <Panel title="Account timeline">
        <Facts
          items={[
            ['Created', formatDateTime(partner.created_at)],
            ['Last updated', formatDateTime(partner.updated_at)],
            ['Last login', formatDateTime(partner.last_login)],
          ]}
        />
      </Panel>
    </div>
  );
}

function Sites({ partner, onCreate }: { partner: AdminPartnerDetail; onCreate(): void }) {
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900">Sites ({partner.sites.length})</h2>
        <Button onClick={onCreate}>Create Site</Button>
      </div>
      {partner.sites.length === 0 ? (
        <p className="text-sm text-slate-700">No sites created yet</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2">
          {partner.sites.map((site) => (
            <li key={site.id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-semibold break-words text-slate-900">{site.site_name}</h3>
                <Badge tone={site.is_active ? 'green' : 'slate'}>
                  {site.is_active ? 'Active' : 'Inactive'}
                </Badge>
              </div>
              <p className="text-sm break-all text-slate-700">{site.domain}</p>
              <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
                <div>
                  <dt className="text-slate-700">Verifications</dt>
                  <dd className="font-semibold text-slate-900">{site.total_verifications}</dd>
                </div>
                <div>
                  <dt className="text-slate-700">OAuth authorizations</dt>
                  <dd className="font-semibold text-slate-900">{site.oauth_authorizations}</dd>
                </div>
                <div>
                  <dt className="text-slate-700">Created</dt>
                  <dd className="text-slate-900">{formatDay(site.created_at)}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A titled group of counters; `id` names its heading. */
function StatSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-3 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <StatGrid>{children}</StatGrid>
    </section>
  );
}

function Statistics({ partner }: { partner: AdminPartnerDetail }) {
  const stats = partner.statistics;
  if (!stats) return <p className="text-sm text-slate-700">No statistics available</p>;
  return (
    <div className="space-y-6">
      <StatSection id="verification-totals" title="Verifications">
        <StatCard label="Total" value={stats.total_verifications} />
        <StatCard label="Successful" value={stats.successful_verifications} />
        <StatCard label="Failed" value={stats.failed_verifications} />
        <StatCard label="Pending" value={stats.pending_verifications} />
      </StatSection>
      <StatSection id="site-totals" title="Sites">
        <StatCard label="Total sites" value={stats.total_sites} />
        <StatCard label="Active OAuth authorizations" value={stats.active_oauth_auths} />
      </StatSection>
    </div>
  );
}
