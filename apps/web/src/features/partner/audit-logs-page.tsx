import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { PartnerAuditEntry } from '@attestly/contracts';
import { partnerAuditQueryOptions, type PartnerAuditFilters } from '../../api/partner';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { SelectField, TextField } from '../../components/ui/field';
import { QueryState } from '../../components/ui/query-state';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Badge, PageTitle, Panel, SimpleTable, formatDate, type TableColumn } from './ui';

const PAGE = 100;

/** spec 01 §4: severity derived from the event type; the server's severity for events the spec does not name. */
export function auditSeverity(entry: Pick<PartnerAuditEntry, 'event' | 'severity'>): string {
  const event = entry.event.replace('.', '_');
  if (/partner_login_succeeded|site_created|verification_completed/.test(event)) return 'info';
  if (/profile_updated|site_updated/.test(event)) return 'warning';
  if (/site_deleted|verification_failed/.test(event)) return 'error';
  return entry.severity || 'info';
}

const EVENTS = [
  'verification.completed',
  'verification.failed',
  'oauth.token_issued',
  'oauth.token_revoked',
  'api.rate_limit_exceeded',
  'partner.api_key_created',
  'partner.api_key_regenerated',
  'partner.api_key_revoked',
  'partner.site_created',
  'partner.site_updated',
  'partner.site_deleted',
  'partner.login_succeeded',
  'partner.login_failed',
  'partner.profile_updated',
];

const AUDIT_COLUMNS: readonly TableColumn<PartnerAuditEntry>[] = [
  { header: 'Time', className: 'whitespace-nowrap', cell: (row) => formatDate(row.timestamp) },
  { header: 'Event', className: 'font-mono text-xs', cell: (row) => row.event },
  {
    header: 'Severity',
    cell: (row) => <Badge value={auditSeverity(row)} label={auditSeverity(row)} />,
  },
  {
    header: 'User',
    className: 'font-mono text-xs',
    cell: (row) => (row.user_id ? `${row.user_id.slice(0, 12)}…` : '—'),
  },
  { header: 'IP address', cell: (row) => row.ip_address ?? '—' },
];

/** /partner/audit-logs (spec 01 §2, §5): search, filters, table and a detail modal. */
export function PartnerAuditLogsPage() {
  useDocumentTitle('Audit logs');
  const [draft, setDraft] = useState({ search: '', event: '', severity: '', start: '', end: '' });
  const [filters, setFilters] = useState<PartnerAuditFilters>({ skip: 0, limit: PAGE });
  const [selected, setSelected] = useState<PartnerAuditEntry | null>(null);
  const logs = useQuery({ ...partnerAuditQueryOptions(filters), placeholderData: keepPreviousData });

  const apply = () => {
    // spec 01 §5: a date range applies only when both ends are set.
    const range =
      draft.start && draft.end
        ? {
            start: new Date(draft.start).toISOString(),
            end: new Date(`${draft.end}T23:59:59.999`).toISOString(),
          }
        : {};
    setFilters({
      skip: 0,
      limit: PAGE,
      search: draft.search.trim() || undefined,
      event: draft.event || undefined,
      severity: draft.severity || undefined,
      ...range,
    });
  };
  const search = draft.search.trim().toLowerCase();

  return (
    <div className="space-y-6">
      <PageTitle title="Audit logs" />
      <Panel title="Filters">
        <form
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5"
          onSubmit={(event) => {
            event.preventDefault();
            apply();
          }}
        >
          <TextField
            label="Search"
            placeholder="Event, user or IP address"
            value={draft.search}
            onChange={(event) => setDraft({ ...draft, search: event.target.value })}
          />
          <SelectField
            label="Event"
            value={draft.event}
            onChange={(event) => setDraft({ ...draft, event: event.target.value })}
          >
            <option value="">All events</option>
            {EVENTS.map((event) => (
              <option key={event} value={event}>
                {event}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Severity"
            value={draft.severity}
            onChange={(event) => setDraft({ ...draft, severity: event.target.value })}
          >
            <option value="">All</option>
            <option value="info">Info</option>
            <option value="warning">Warning</option>
            <option value="error">Error</option>
          </SelectField>
          <TextField
            label="From"
            type="date"
            value={draft.start}
            onChange={(event) => setDraft({ ...draft, start: event.target.value })}
          />
          <TextField
            label="To"
            type="date"
            value={draft.end}
            onChange={(event) => setDraft({ ...draft, end: event.target.value })}
          />
          <div className="flex gap-2 sm:col-span-2 lg:col-span-5">
            <Button type="submit">Apply</Button>
            <Button
              variant="secondary"
              onClick={() => {
                setDraft({ search: '', event: '', severity: '', start: '', end: '' });
                setFilters({ skip: 0, limit: PAGE });
              }}
            >
              Reset
            </Button>
          </div>
        </form>
      </Panel>
      <Panel title="Entries">
        {/* spec 01 §8: the page's message, then the server's detail or the fetch's own fallback. */}
        <QueryState
          query={logs}
          loadingLabel="Loading audit logs…"
          errorTitle="Failed to load audit logs"
          errorFallback="Failed to fetch audit logs"
        >
          {(data) => {
            // The server searches events, addresses and users (by pairwise subject prefix); this narrows the page as
            // the search box is typed in, before it is applied.
            const rows = data.audit_logs.filter(
              (row) =>
                !search ||
                row.event.toLowerCase().includes(search) ||
                (row.ip_address ?? '').includes(search) ||
                (row.user_id ?? '').includes(search),
            );
            return (
              <>
                <p className="mb-3 text-sm text-slate-700">
                  {data.total_count.toLocaleString('en-US')} entries
                </p>
                {rows.length === 0 ? (
                  <p className="text-sm text-slate-700">No entries match.</p>
                ) : (
                  <SimpleTable
                    className="relative overflow-x-auto"
                    rows={rows}
                    columns={[
                      ...AUDIT_COLUMNS,
                      {
                        header: <span className="sr-only">Details</span>,
                        cell: (row) => (
                          <Button variant="ghost" onClick={() => setSelected(row)}>
                            Details
                          </Button>
                        ),
                      },
                    ]}
                  />
                )}
                <div className="mt-4 flex gap-2">
                  <Button
                    variant="secondary"
                    disabled={(filters.skip ?? 0) === 0}
                    onClick={() => setFilters({ ...filters, skip: Math.max(0, (filters.skip ?? 0) - PAGE) })}
                  >
                    Previous
                  </Button>
                  <Button
                    variant="secondary"
                    disabled={(filters.skip ?? 0) + PAGE >= data.total_count}
                    onClick={() => setFilters({ ...filters, skip: (filters.skip ?? 0) + PAGE })}
                  >
                    Next
                  </Button>
                </div>
              </>
            );
          }}
        </QueryState>
      </Panel>
      <Dialog
        open={!!selected}
        onOpenChange={(open) => (open ? undefined : setSelected(null))}
        title={selected?.event ?? 'Entry'}
        size="xl"
      >
        {selected ? (
          <dl className="space-y-2 text-sm">
            <div>
              <dt className="text-slate-600">Time</dt>
              <dd>{formatDate(selected.timestamp)}</dd>
            </div>
            <div>
              <dt className="text-slate-600">User (your site’s subject)</dt>
              <dd className="font-mono text-xs break-all">{selected.user_id ?? '—'}</dd>
            </div>
            <div>
              <dt className="text-slate-600">IP address</dt>
              <dd>{selected.ip_address ?? '—'}</dd>
            </div>
            <div>
              <dt className="text-slate-600">User agent</dt>
              <dd className="break-all">{selected.user_agent ?? '—'}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Details</dt>
              <dd>
                <pre className="overflow-x-auto rounded bg-slate-50 p-3 text-xs">
                  {JSON.stringify(selected.details, null, 2)}
                </pre>
              </dd>
            </div>
          </dl>
        ) : null}
      </Dialog>
    </div>
  );
}
