import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { AdminSystemHealth } from '@attestly/contracts';
import { adminAlertsQueryOptions, adminHealthQueryOptions, adminStatsQueryOptions } from '../../api/admin';
import { ApiError } from '../../api/client';
import { adminSignOut } from '../../auth/admin-session';
import { Button } from '../../components/ui/button';
import { LoadingState } from '../../components/ui/query-state';
import { useDocumentTitle } from '../../lib/use-document-title';
import { formatDateTime } from './format';
import { Badge, PageHeader, Panel, StatCard, StatusBadge, type Tone } from './ui';

const SEVERITY_TONES: Record<string, Tone> = {
  critical: 'red',
  error: 'red',
  warning: 'amber',
  info: 'blue',
};

/** spec 02 §8: a failing health check shows an unknown status rather than an error. */
const UNKNOWN_HEALTH: AdminSystemHealth = {
  overall_status: 'unknown' as AdminSystemHealth['overall_status'],
  database: {
    status: 'unknown' as AdminSystemHealth['database']['status'],
    error: null,
    latency_ms: null,
    dialect: '',
  },
  services: {},
  metrics: { recent_api_calls: 0, active_users_last_hour: 0, healthy_services: 0, total_services: 0 },
  checked_at: '',
};

const number = (value: number) => value.toLocaleString();

/** /backoffice (spec 02 §2 "Dashboard"): statistics, system health and alerts. */
export function DashboardPage() {
  useDocumentTitle('Back office');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const stats = useQuery(adminStatsQueryOptions());
  const health = useQuery(adminHealthQueryOptions());
  const alerts = useQuery(adminAlertsQueryOptions());

  if (stats.isPending) return <LoadingState label="Loading dashboard…" />;
  if (stats.isError) {
    const message =
      stats.error instanceof ApiError && stats.error.status > 0
        ? `Stats API failed: ${stats.error.status}`
        : stats.error instanceof Error
          ? stats.error.message
          : 'Stats API failed';
    return (
      <div
        role="alert"
        className="mx-auto max-w-lg rounded-xl border border-red-200 bg-red-50 p-6 text-red-900"
      >
        <h1 className="text-lg font-semibold">Error</h1>
        <p className="mt-2 text-sm">{message}</p>
        <div className="mt-4 flex gap-2">
          <Button variant="secondary" onClick={() => void stats.refetch()}>
            Try again
          </Button>
          <Button
            onClick={() =>
              void adminSignOut(queryClient).then(() => navigate({ to: '/backoffice/login', replace: true }))
            }
          >
            Go to Login
          </Button>
        </div>
      </div>
    );
  }
  const data = stats.data;
  const healthData = health.data ?? (health.isError ? UNKNOWN_HEALTH : null);
  const alertList = alerts.data?.alerts ?? [];

  return (
    <div className="space-y-6">
      <PageHeader title="Dashboard" />
      <section aria-labelledby="stats-heading">
        <h2 id="stats-heading" className="sr-only">
          Statistics
        </h2>
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <StatCard label="Total users" value={number(data.total_users)} />
          <StatCard label="Verified users" value={number(data.verified_users)} />
          <StatCard label="Active users" value={number(data.active_users)} />
          <StatCard label="Registrations (24h)" value={number(data.registrations_24h)} />
          <StatCard label="Total partners" value={number(data.total_partners)} />
          <StatCard label="Active partners" value={number(data.active_partners)} />
          <StatCard label="Total tokens" value={number(data.total_tokens)} />
          <StatCard label="Total verifications" value={number(data.total_verifications)} />
          <StatCard label="Verifications (24h)" value={number(data.verifications_24h)} />
          <StatCard
            label="Success rate (30 days)"
            value={data.success_rate === null ? 'N/A' : `${(data.success_rate * 100).toFixed(1)}%`}
          />
          <StatCard
            label="Pending reviews"
            value={
              <Link
                to="/backoffice/verifications"
                className="text-indigo-700 underline-offset-2 hover:underline"
                aria-label={`${number(data.pending_reviews)} pending reviews: open the review queue`}
              >
                {number(data.pending_reviews)}
              </Link>
            }
          />
        </dl>
      </section>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Panel
          title="System health"
          actions={healthData ? <StatusBadge status={healthData.overall_status} /> : undefined}
        >
          {healthData ? (
            <div className="space-y-4 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium text-slate-900">Database</span>
                <span className="flex items-center gap-2">
                  {healthData.database.latency_ms !== null ? (
                    <span className="text-slate-700">{healthData.database.latency_ms} ms</span>
                  ) : null}
                  <StatusBadge status={healthData.database.status} />
                </span>
              </div>
              {healthData.database.error ? <p className="text-red-800">{healthData.database.error}</p> : null}
              <ul className="divide-y divide-slate-100">
                {Object.entries(healthData.services).map(([name, service]) => (
                  <li key={name} className="py-2">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <span className="font-medium text-slate-900">{name.replace(/_/g, ' ')}</span>
                      <StatusBadge status={service.status} />
                    </div>
                    {service.error ? <p className="mt-1 text-red-800">{service.error}</p> : null}
                    {service.note ? <p className="mt-1 text-slate-700">{service.note}</p> : null}
                  </li>
                ))}
              </ul>
              <dl className="grid grid-cols-2 gap-3">
                {(
                  [
                    ['API calls (last hour)', number(healthData.metrics.recent_api_calls)],
                    ['Active users (last hour)', number(healthData.metrics.active_users_last_hour)],
                    [
                      'Services working',
                      `${healthData.metrics.healthy_services} / ${healthData.metrics.total_services}`,
                    ],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label}>
                    <dt className="text-slate-700">{label}</dt>
                    <dd className="font-semibold text-slate-900">{value}</dd>
                  </div>
                ))}
              </dl>
            </div>
          ) : (
            <LoadingState label="Checking health…" />
          )}
        </Panel>
        <Panel title="Alerts">
          {alerts.isPending ? (
            <LoadingState label="Loading alerts…" />
          ) : alertList.length === 0 ? (
            <p className="text-sm text-slate-700">No alerts.</p>
          ) : (
            <ul className="space-y-3">
              {alertList.map((alert) => (
                <li key={alert.id} className="rounded-lg border border-slate-200 p-3 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge tone={SEVERITY_TONES[alert.severity] ?? 'slate'}>
                      {alert.severity.toUpperCase()}
                    </Badge>
                    <span className="text-xs text-slate-700">{alert.type.replace(/_/g, ' ')}</span>
                  </div>
                  <p className="mt-1 text-slate-900">{alert.message}</p>
                  <p className="mt-1 text-xs text-slate-700">{formatDateTime(alert.created_at, '')}</p>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </div>
  );
}
