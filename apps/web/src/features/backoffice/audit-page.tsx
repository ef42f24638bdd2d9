import { useQuery } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { AUDIT_EVENTS, AUDIT_EVENT_NAMES, type AdminAuditLog } from '@attestly/contracts';
import { adminAuditQueryOptions } from '../../api/admin';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { TextField } from '../../components/ui/field';
import { useDocumentTitle } from '../../lib/use-document-title';
import { dayToIso, formatDateTime, isoDay, shortId, userAgentHead } from './format';
import { PagedTable, RowAction, StatGrid, type Column } from './list-ui';
import { Badge, Facts, PageHeader, Panel, StatCard, type Tone } from './ui';

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

/** Who acted: an administrator, the user, the partner in its own portal or with its key, else the system. */
const actorOf = (log: AdminAuditLog) =>
  log.admin_user_id
    ? 'Admin'
    : log.user_id
      ? 'User'
      : log.partner_id && /^(partner|api)\./.test(log.event_type)
        ? 'Partner'
        : 'System';
/** The actor's e-mail address, or for a partner its name. */
const actorName = (log: AdminAuditLog) => (actorOf(log) === 'Partner' ? log.partner_name : log.actor_email);

/** The event names the filter suggests, in the one scheme the log is shown in (contracts AUDIT_EVENT_NAMES). */
const EVENT_SUGGESTIONS = [
  ...new Set([
    ...AUDIT_EVENTS,
    ...Object.values(AUDIT_EVENT_NAMES),
    'api.rate_limit_exceeded',
    'partner.api_key_used',
  ]),
].sort();

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

  const columns: Column<AdminAuditLog>[] = [
    {
      header: 'Timestamp',
      className: 'whitespace-nowrap',
      cell: (log) => formatDateTime(log.timestamp, '—'),
    },
    { header: 'Event', className: 'font-mono text-xs', cell: (log) => log.event_type },
    {
      header: 'Severity',
      cell: (log) => (
        <Badge tone={SEVERITY_TONES[log.severity] ?? 'blue'}>{(log.severity || 'info').toUpperCase()}</Badge>
      ),
    },
    {
      header: 'Actor',
      className: 'text-xs',
      cell: (log) => (
        <>
          <p className="font-medium text-slate-900">{actorOf(log)}</p>
          {actorName(log) ? <p className="break-all">{actorName(log)}</p> : null}
        </>
      ),
    },
    {
      header: 'Target',
      className: 'text-xs',
      cell: (log) => (
        <>
          {log.partner_id ? <p>Partner {log.partner_name ?? shortId(log.partner_id)}</p> : null}
          {log.user_id ? <p className="break-all">User {log.user_email ?? shortId(log.user_id)}</p> : null}
          {!log.partner_id && !log.user_id ? '—' : null}
        </>
      ),
    },
    {
      header: 'Source',
      className: 'text-xs',
      cell: (log) => (
        <>
          <p>{log.ip_address ?? '—'}</p>
          <p className="text-slate-700">{userAgentHead(log.user_agent)}</p>
        </>
      ),
    },
    {
      header: 'Details',
      cell: (log) => (
        <RowAction
          label={`Details of ${log.event_type} at ${formatDateTime(log.timestamp, '')}`}
          onClick={() => setOpen(log)}
        >
          Details
        </RowAction>
      ),
    },
  ];

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
          <TextField
            label="Event type"
            placeholder="partner.created"
            list="audit-event-names"
            {...field('event_type')}
          />
          <datalist id="audit-event-names">
            {EVENT_SUGGESTIONS.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
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
      <StatGrid>
        <StatCard label="Total Logs" value={logs.data?.total_count ?? '—'} />
        <StatCard label="User Events" value={rows.filter((log) => log.event_type.includes('user')).length} />
        <StatCard
          label="Partner Events"
          value={rows.filter((log) => log.event_type.includes('partner')).length}
        />
        <StatCard label="Admin Actions" value={rows.filter((log) => log.admin_user_id).length} />
      </StatGrid>
      <Panel>
        <PagedTable
          query={logs}
          loading="Loading audit logs…"
          failed="Failed to load audit logs"
          empty="No audit entries match these filters."
          label="Audit logs"
          columns={columns}
          rows={rows}
          rowTestId="audit-row"
          skip={skip}
          limit={PAGE_SIZE}
          onPage={setSkip}
        />
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
                ['Actor', [actorOf(open), actorName(open)].filter(Boolean).join(' — ')],
                ['Severity', (open.severity || 'info').toUpperCase()],
                ['Timestamp', formatDateTime(open.timestamp, '—')],
                ['User ID', open.user_id ? [open.user_id, open.user_email].filter(Boolean).join(' — ') : '—'],
                [
                  'Partner ID',
                  open.partner_id ? [open.partner_id, open.partner_name].filter(Boolean).join(' — ') : '—',
                ],
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
