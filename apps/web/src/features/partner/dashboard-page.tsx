import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { PartnerStats } from '@attestly/contracts';
import { partnerStatsQueryOptions } from '../../api/partner';
import { QueryState } from '../../components/ui/query-state';
import { useDocumentTitle } from '../../lib/use-document-title';
import { UsageSummary } from '../billing/usage-summary';
import { Badge, PageTitle, Panel, SimpleTable, formatDate, type TableColumn } from './ui';

const number = (value: number) => value.toLocaleString('en-US');

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-slate-900">{value}</dd>
      {hint ? <dd className="mt-1 text-xs text-slate-600">{hint}</dd> : null}
    </div>
  );
}

function trendText(stats: PartnerStats): string {
  const change = stats.trend.change_percent;
  if (change === null) return 'No earlier 30 days to compare';
  return `${change > 0 ? '+' : ''}${change}% vs the 30 days before`;
}

const LINKS: Array<{ to: string; label: string }> = [
  { to: '/partner/subscription', label: 'Subscription' },
  { to: '/partner/plans', label: 'Plans' },
  { to: '/partner/api-keys', label: 'API keys' },
  { to: '/partner/sites', label: 'Sites' },
  { to: '/partner/integration', label: 'Integration guide' },
  { to: '/partner/audit-logs', label: 'Audit logs' },
];

type RecentItem = PartnerStats['recent_verifications'][number];

const VERIFICATION_COLUMNS: readonly TableColumn<RecentItem>[] = [
  {
    header: 'Type',
    cell: (item) => (
      <>
        {`${item.verification_type ?? ''} verification`}
        {item.sandbox ? (
          <>
            {' '}
            <Badge value="sandbox" />
          </>
        ) : null}
      </>
    ),
  },
  {
    header: 'User',
    className: 'font-mono text-xs',
    title: (item) => item.user,
    cell: (item) => <>{item.user.slice(0, 12)}…</>,
  },
  { header: 'Location', cell: (item) => item.location ?? '—' },
  { header: 'Status', cell: (item) => <Badge value={item.status} label={item.status} /> },
  { header: 'Time', cell: (item) => formatDate(item.timestamp) },
];

/**
 * "Recent verifications" lists verifications only (issue 25 item 13). The stats answer mixes in token revocations
 * (spec 01 §3's recent item is "verification or token revocation"); those are a different event, so they get a short
 * list of their own below rather than rows that read as verifications.
 */
export function RecentVerifications({ items }: { items: PartnerStats['recent_verifications'] }) {
  const verifications = items.filter((item) => item.type === 'verification');
  const revocations = items.filter((item) => item.type === 'token_revocation');
  return (
    <div className="space-y-6">
      <Panel title="Recent verifications">
        {verifications.length === 0 ? (
          <p className="text-sm text-slate-700">
            No verifications yet. Send people through your site&apos;s sign-in to see them here.
          </p>
        ) : (
          <SimpleTable columns={VERIFICATION_COLUMNS} rows={verifications} />
        )}
      </Panel>
      {revocations.length ? (
        <Panel title="Recently revoked access">
          <ul className="divide-y divide-slate-100 text-sm">
            {revocations.map((item) => (
              <li key={item.id} className="flex flex-wrap justify-between gap-2 py-2">
                <span>
                  User{' '}
                  <span className="font-mono text-xs" title={item.user}>
                    {item.user.slice(0, 12)}…
                  </span>{' '}
                  revoked your site&apos;s access
                </span>
                <span className="text-slate-700">{formatDate(item.timestamp)}</span>
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}
    </div>
  );
}

/** /partner/dashboard (spec 01 §2): statistics from GET /partners/stats, recent verifications, top countries. */
export function PartnerDashboardPage() {
  useDocumentTitle('Partner dashboard');
  const stats = useQuery(partnerStatsQueryOptions());
  return (
    <div className="space-y-6">
      <PageTitle title="Dashboard" />
      <UsageSummary />
      <QueryState query={stats} loadingLabel="Loading statistics…" errorFallback="Failed to load statistics">
        {(data) => (
          <>
            <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
              <Stat
                label="Total verifications"
                value={number(data.total_verifications)}
                hint={`Including ${number(data.verified_at_consent)} users already verified when they consented; ${number(data.sandbox_verifications)} sandbox (not counted)`}
              />
              <Stat
                label="Success rate"
                value={data.success_rate === null ? '—' : `${data.success_rate}%`}
                hint={`${number(data.successful_verifications)} successful, ${number(data.failed_verifications)} failed`}
              />
              <Stat
                label="This month"
                value={number(data.monthly_usage.current_month)}
                hint={`Last month: ${number(data.monthly_usage.previous_month)}`}
              />
              <Stat label="Last 30 days" value={number(data.trend.current_period)} hint={trendText(data)} />
              <Stat label="Active tokens" value={number(data.active_tokens)} />
              <Stat label="Revoked tokens" value={number(data.revoked_tokens)} />
              <Stat
                label="Average API response time"
                value={data.avg_response_time_ms === null ? '—' : `${data.avg_response_time_ms} ms`}
                hint="Measured on calls made with your API keys"
              />
              <Stat label="Sites" value={number(data.total_sites)} hint={`Plan: ${data.plan}`} />
            </dl>
            <div className="grid gap-6 lg:grid-cols-3">
              <div className="lg:col-span-2">
                <RecentVerifications items={data.recent_verifications} />
              </div>
              <Panel title="Top countries">
                {data.top_countries.length === 0 ? (
                  <p className="text-sm text-slate-700">No verified locations yet.</p>
                ) : (
                  <ul className="space-y-3">
                    {data.top_countries.map((country) => (
                      <li key={country.country}>
                        <div className="flex justify-between text-sm">
                          <span className="font-medium text-slate-900">{country.country}</span>
                          <span className="text-slate-700">
                            {number(country.verifications)} ({country.percentage}%)
                          </span>
                        </div>
                        <div className="mt-1 h-2 rounded-full bg-slate-100">
                          <div
                            className="h-2 rounded-full bg-indigo-600"
                            style={{ width: `${Math.min(100, country.percentage)}%` }}
                          />
                        </div>
                      </li>
                    ))}
                  </ul>
                )}
              </Panel>
            </div>
          </>
        )}
      </QueryState>
      <Panel title="Quick links">
        <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
          {LINKS.map((link) => (
            <li key={link.to}>
              <Link
                to={link.to as '/'}
                className="block rounded-lg border border-slate-200 px-3 py-2 text-sm font-medium text-indigo-800 hover:bg-indigo-50"
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </Panel>
    </div>
  );
}
