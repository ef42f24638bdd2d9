import { useQuery } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { AdminAuditLog } from '@attestly/contracts';
import { adminAuditQueryOptions } from '../../api/admin';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { TextField } from '../../components/ui/field';
import { ErrorState, LoadingState } from '../../components/ui/query-state';
import { useDocumentTitle } from '../../lib/use-document-title';
import { dayToIso, formatDateTime, isoDay, shortId, userAgentHead } from './format';
import { Badge, Facts, PageHeader, Pager, Panel, StatCard, TableFrame, td, th, type Tone } from './ui';

/** spec 02 §9: 100 per page. */
const PAGE_SIZE = 100;
const SEVERITY_TONES: Record<string, Tone> = {
  critical: 'red',
  error: 'red',
  warning: 'amber',
  info: 'blue',
};

interface Filters {
  event_type: string;
  user_id: string;
  partner_id: string;
  admin_user_id: string;
  start: string;
  end: string;
}

/** spec 02 §9: the dates default to the last 7 days. */
export function defaultAuditFilters(now = new Date()): Filters {
  const start = new Date(now);
  start.setDate(start.getDate() - 7);
  return {
    event_type: '',
    user_id: '',
    partner_id: '',
    admin_user_id: '',
    start: isoDay(start),
    end: isoDay(now),
  };
}

/** The query of a set of filters: the date range applies only when both ends are set (spec 02 §5). */
export function auditParams(filters: Filters, skip: number) {
  const both = filters.start !== '' && filters.end !== '';
  return {
    skip,
    limit: PAGE_SIZE,
    event_type: filters.event_type.trim() || undefined,
    user_id: filters.user_id.trim() || undefined,
    partner_id: filters.partner_id.trim() || undefined,
    admin_user_id: filters.admin_user_id.trim() || undefined,
    start_date: both ? dayToIso(filters.start) : undefined,
    end_date: both ? dayToIso(filters.end, true) : undefined,
  };
}

const actorOf = (log: AdminAuditLog) => (log.admin_user_id ? 'Admin' : log.user_id ? 'User' : 'System');

/** spec 02 §2 "Audit": filters, counters, the log table refreshing itself every 30 seconds, and a details modal. */
export function AuditPage() {
  useDocumentTitle('Audit Logs');
  const [draft, setDraft] = useState<Filters>(() => defaultAuditFilters());
  const [filters, setFilters] = useState<Filters>(draft);
  const [skip, setSkip] = useState(0);
  const [open, setOpen] = useState<AdminAuditLog | null>(null);
  const logs = useQuery(adminAuditQueryOptions(auditParams(filters, skip)));
  const rows = logs.data?.audit_logs ?? [];

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setSkip(0);
  };
  const field = (name: keyof Filters) => ({
    value: draft[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      setDraft((current) => ({ ...current, [name]: event.target.value })),
  });

  return (
    <div className="space-y-6">
      <PageHeader title="Audit Logs">
        <span className="text-sm text-slate-700">Auto-refresh every 30 seconds</span>
        <Button variant="secondary" onClick={() => void logs.refetch()}>
          Refresh Now
        </Button>
      </PageHeader>
      <Panel>
        <form className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" onSubmit={apply}>
          <TextField label="Event type" placeholder="partner_created" {...field('event_type')} />
          <TextField label="User ID" {...field('user_id')} />
          <TextField label="Partner ID" {...field('partner_id')} />
          <TextField label="Admin user ID" {...field('admin_user_id')} />
          <TextField label="Start date" type="date" {...field('start')} />
          <TextField label="End date" type="date" {...field('end')} />
          <div className="flex items-end gap-2">
            <Button type="submit">Apply filters</Button>
            <Button
              variant="secondary"
              onClick={() => {
                const reset = defaultAuditFilters();
                setDraft(reset);
                setFilters(reset);
                setSkip(0);
              }}
            >
              Reset
            </Button>
          </div>
        </form>
      </Panel>
      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard label="Total Logs" value={logs.data?.total_count ?? '—'} />
        <StatCard label="User Events" value={rows.filter((log) => log.event_type.includes('user')).length} />
        <StatCard
          label="Partner Events"
          value={rows.filter((log) => log.event_type.includes('partner')).length}
        />
        <StatCard label="Admin Actions" value={rows.filter((log) => log.admin_user_id).length} />
      </dl>
      <Panel>
        {logs.isPending ? (
          <LoadingState label="Loading audit logs…" />
        ) : logs.isError ? (
          <ErrorState
            error={logs.error}
            fallback="Failed to load audit logs"
            onRetry={() => void logs.refetch()}
          />
        ) : rows.length === 0 ? (
          <p className="text-sm text-slate-700">No audit entries match these filters.</p>
        ) : (
          <>
            <TableFrame label="Audit logs">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={th}>
                    Timestamp
                  </th>
                  <th scope="col" className={th}>
                    Event
                  </th>
                  <th scope="col" className={th}>
                    Severity
                  </th>
                  <th scope="col" className={th}>
                    Actor
                  </th>
                  <th scope="col" className={th}>
                    Target
                  </th>
                  <th scope="col" className={th}>
                    Source
                  </th>
                  <th scope="col" className={th}>
                    Details
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((log) => (
                  <tr key={log.id} data-testid="audit-row">
                    <td className={`${td} whitespace-nowrap`}>{formatDateTime(log.timestamp, '—')}</td>
                    <td className={`${td} font-mono text-xs`}>{log.event_type}</td>
                    <td className={td}>
                      <Badge tone={SEVERITY_TONES[log.severity] ?? 'blue'}>
                        {(log.severity || 'info').toUpperCase()}
                      </Badge>
                    </td>
                    <td className={td}>{actorOf(log)}</td>
                    <td className={`${td} text-xs`}>
                      {log.partner_id ? <p>Partner {shortId(log.partner_id)}</p> : null}
                      {log.user_id ? <p>User {shortId(log.user_id)}</p> : null}
                      {!log.partner_id && !log.user_id ? '—' : null}
                    </td>
                    <td className={`${td} text-xs`}>
                      <p>{log.ip_address ?? '—'}</p>
                      <p className="text-slate-700">{userAgentHead(log.user_agent)}</p>
                    </td>
                    <td className={td}>
                      <Button
                        variant="ghost"
                        className="px-2 py-1"
                        aria-label={`Details of ${log.event_type} at ${formatDateTime(log.timestamp, '')}`}
                        onClick={() => setOpen(log)}
                      >
                        Details
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </TableFrame>
            <Pager skip={skip} limit={PAGE_SIZE} total={logs.data?.total_count ?? 0} onChange={setSkip} />
          </>
        )}
      </Panel>
      <Dialog
        open={open !== null}
        onOpenChange={(next) => (next ? undefined : setOpen(null))}
        title="Audit log details"
        size="xl"
      >
        {open ? (
          <div className="space-y-4">
            <Facts
              items={[
                [
                  'Log ID',
                  <code key="id" className="break-all">
                    {open.id}
                  </code>,
                ],
                ['Event type', open.event_type],
                ['Severity', (open.severity || 'info').toUpperCase()],
                ['Timestamp', formatDateTime(open.timestamp, '—')],
                ['User ID', open.user_id ?? '—'],
                ['Partner ID', open.partner_id ?? '—'],
                ['Admin user ID', open.admin_user_id ?? '—'],
                ['IP address', open.ip_address ?? '—'],
                ['User agent', open.user_agent ?? '—'],
              ]}
            />
            <div>
              <h3 className="text-sm font-semibold text-slate-900">Details</h3>
              <pre
                tabIndex={0}
                className="mt-1 max-h-80 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100"
              >
                {JSON.stringify(open.details, null, 2)}
              </pre>
            </div>
          </div>
        ) : null}
      </Dialog>
    </div>
  );
}
