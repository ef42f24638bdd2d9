import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { readinessQueryOptions } from '../api/site';
import { PublicPage } from '../components/layout/public-page';
import { Button } from '../components/ui/button';
import { QueryState } from '../components/ui/query-state';
import { useDocumentTitle } from '../lib/use-document-title';

export const Route = createFileRoute('/status')({ component: StatusPage });

const NAMES: Record<string, string> = {
  database: 'Database',
  migrations: 'Database schema',
  models: 'Vision models',
};

/** Component details worth showing (dialect, backend, pending migrations); errors and flags are summarised. */
function details(check: Record<string, unknown>): string {
  return Object.entries(check)
    .filter(
      ([key, value]) =>
        key !== 'ok' &&
        value !== null &&
        value !== undefined &&
        !(Array.isArray(value) && value.length === 0),
    )
    .map(
      ([key, value]) =>
        `${key.replace(/_/g, ' ')}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    )
    .join(' · ');
}

/** Live readiness of this appliance, from /readyz (refreshed every 30 s). */
function StatusPage() {
  useDocumentTitle('Status');
  const readiness = useQuery(readinessQueryOptions());
  return (
    <PublicPage>
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        <h1 className="text-4xl font-bold tracking-tight text-slate-900">Status</h1>
        <p className="mt-3 text-slate-700">The health of this Attestly appliance, checked live.</p>
        <div className="mt-8">
          <QueryState
            query={readiness}
            loadingLabel="Checking the appliance…"
            errorFallback="The status check could not reach the server"
          >
            {(status) => (
              <div className="space-y-6">
                <div
                  role="status"
                  className={`flex items-center gap-3 rounded-xl p-5 ${status.status === 'ready' ? 'bg-emerald-50 text-emerald-900' : 'bg-red-50 text-red-900'}`}
                >
                  <span
                    aria-hidden="true"
                    className={`size-3 rounded-full ${status.status === 'ready' ? 'bg-emerald-600' : 'bg-red-600'}`}
                  />
                  <p className="text-lg font-semibold">
                    {status.status === 'ready'
                      ? 'All systems operational'
                      : 'Degraded: some components are not ready'}
                  </p>
                </div>
                <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200">
                  {Object.entries(status.checks).map(([name, check]) => (
                    <li key={name} className="flex flex-wrap items-center justify-between gap-2 px-5 py-4">
                      <div>
                        <p className="font-medium text-slate-900">{NAMES[name] ?? name}</p>
                        {details(check) ? <p className="text-sm text-slate-700">{details(check)}</p> : null}
                      </div>
                      <span
                        className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${check.ok ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800'}`}
                      >
                        {check.ok ? 'Operational' : 'Not ready'}
                      </span>
                    </li>
                  ))}
                </ul>
                <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
                  <span>
                    Last checked{' '}
                    {new Date(readiness.dataUpdatedAt).toLocaleTimeString('en-US', {
                      hour: '2-digit',
                      minute: '2-digit',
                      second: '2-digit',
                    })}
                  </span>
                  <Button
                    variant="secondary"
                    busy={readiness.isFetching}
                    onClick={() => void readiness.refetch()}
                  >
                    Check now
                  </Button>
                </div>
              </div>
            )}
          </QueryState>
        </div>
      </div>
    </PublicPage>
  );
}
