import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import type { AdminVerification } from '@attestly/contracts';
import { adminErrorMessage, adminVerificationsQueryOptions } from '../../api/admin';

import { Button } from '../../components/ui/button';
import { CheckboxField, SelectField, TextField } from '../../components/ui/field';
import { LoadingState } from '../../components/ui/query-state';
import { useDocumentTitle } from '../../lib/use-document-title';
import { FlagUserDialog } from './flag-user-dialog';
import { dayToIso, formatConfidence, formatDateTime, shortRecordId } from './format';
import { Badge, PageHeader, Pager, Panel, StatCard, StatusBadge, TableFrame, td, th } from './ui';
import { VerificationActionDialog, type VerificationAction } from './verification-actions';
import { VerificationDetailsDialog } from './verification-details';

const PAGE_SIZE = 50;

const STATUS_OPTIONS = [
  ['pending', 'Pending'],
  ['approved', 'Approved'],
  ['rejected', 'Rejected'],
  ['expired', 'Expired'],
] as const;
const TYPE_OPTIONS = [
  ['age', 'Age'],
  ['location', 'Location'],
  ['identity', 'Identity'],
] as const;
const METHOD_OPTIONS = [
  ['document', 'Document'],
  ['credit_card', 'Credit Card'],
  ['ip_geolocation', 'IP Geolocation'],
  ['facial_recognition', 'Facial Recognition'],
] as const;

/** The review queue first: pending cases waiting for a person, oldest first; then the rest as the server sent it. */
export function reviewOrder(items: AdminVerification[]): AdminVerification[] {
  const waiting = (item: AdminVerification) => item.status === 'pending' && item.needs_manual_review;
  return [
    ...items.filter(waiting).sort((a, b) => a.submitted_at.localeCompare(b.submitted_at)),
    ...items.filter((item) => !waiting(item)),
  ];
}

/** spec 02 §2 "Verifications": the review queue with filters, counters, details, and the three review actions. */
export function VerificationsPage() {
  useDocumentTitle('Verifications');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [type, setType] = useState('');
  const [method, setMethod] = useState('');
  const [needsReview, setNeedsReview] = useState(false);
  const [dates, setDates] = useState({ start: '', end: '' });
  const [range, setRange] = useState({ start: '', end: '' });
  const [skip, setSkip] = useState(0);
  const [details, setDetails] = useState<string | null>(null);
  const [acting, setActing] = useState<{ id: string; action: VerificationAction } | null>(null);
  const [flagging, setFlagging] = useState<AdminVerification | null>(null);

  const params = {
    skip,
    limit: PAGE_SIZE,
    search: search.trim() || undefined,
    status: status || undefined,
    type: type || undefined,
    method: method || undefined,
    needs_review: needsReview ? true : undefined,
    start_date: range.start ? dayToIso(range.start) : undefined,
    end_date: range.end ? dayToIso(range.end, true) : undefined,
  };
  const list = useQuery(adminVerificationsQueryOptions(params));
  const rows = useMemo(() => reviewOrder(list.data?.verifications ?? []), [list.data]);
  const counts = useMemo(
    () => ({
      pending: rows.filter((row) => row.status === 'pending').length,
      verified: rows.filter((row) => row.status === 'approved' || (row.status as string) === 'verified')
        .length,
      failed: rows.filter((row) => row.status === 'failed' || row.status === 'rejected').length,
    }),
    [rows],
  );

  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setSkip(0);
    };
  const applyDates = (event: FormEvent) => {
    event.preventDefault();
    setRange(dates);
    setSkip(0);
  };

  return (
    <div className="space-y-6">
      <PageHeader title="Verifications">
        <Button variant="secondary" onClick={() => void list.refetch()}>
          Refresh
        </Button>
      </PageHeader>

      <Panel>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <TextField
            label="Search"
            type="search"
            placeholder="Id, user id or e-mail"
            value={search}
            onChange={(event) => filter(setSearch)(event.target.value)}
          />
          <SelectField
            label="Status"
            value={status}
            onChange={(event) => filter(setStatus)(event.target.value)}
          >
            <option value="">All</option>
            {STATUS_OPTIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
          <SelectField label="Type" value={type} onChange={(event) => filter(setType)(event.target.value)}>
            <option value="">All</option>
            {TYPE_OPTIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Method"
            value={method}
            onChange={(event) => filter(setMethod)(event.target.value)}
          >
            <option value="">All</option>
            {METHOD_OPTIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
        </div>
        <form className="mt-4 flex flex-wrap items-end gap-4" onSubmit={applyDates}>
          <CheckboxField
            label="Needs Review"
            checked={needsReview}
            onChange={(event) => filter(setNeedsReview)(event.target.checked)}
          />
          <TextField
            label="From"
            type="date"
            value={dates.start}
            onChange={(event) => setDates((value) => ({ ...value, start: event.target.value }))}
          />
          <TextField
            label="To"
            type="date"
            value={dates.end}
            onChange={(event) => setDates((value) => ({ ...value, end: event.target.value }))}
          />
          <Button type="submit" variant="secondary">
            Apply
          </Button>
        </form>
      </Panel>

      {list.isError ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          <strong>Error:</strong> Failed to load verifications:{' '}
          {adminErrorMessage(list.error, 'Unknown error')}
        </div>
      ) : null}

      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard label="Total" value={list.data?.total_count ?? '—'} />
        <StatCard label="Pending Review" value={counts.pending} />
        <StatCard label="Verified" value={counts.verified} />
        <StatCard label="Failed" value={counts.failed} />
      </dl>

      <Panel>
        {list.isPending ? (
          <LoadingState label="Loading verifications…" />
        ) : rows.length === 0 ? (
          <p className="text-sm text-slate-700">No verifications match these filters.</p>
        ) : (
          <>
            <TableFrame label="Verifications">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={th}>
                    Type
                  </th>
                  <th scope="col" className={th}>
                    ID
                  </th>
                  <th scope="col" className={th}>
                    User
                  </th>
                  <th scope="col" className={th}>
                    Status
                  </th>
                  <th scope="col" className={th}>
                    Confidence
                  </th>
                  <th scope="col" className={th}>
                    Submitted
                  </th>
                  <th scope="col" className={th}>
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((row) => (
                  <tr key={row.id} data-testid="verification-row">
                    <td className={td}>
                      <div className="flex flex-wrap gap-1">
                        <Badge tone="indigo">{row.verification_type}</Badge>
                        <Badge tone="slate">{row.verification_method.replace(/_/g, ' ')}</Badge>
                      </div>
                    </td>
                    <td className={`${td} font-mono text-xs`} title={row.id}>
                      {shortRecordId(row.id)}
                    </td>
                    <td className={`${td} font-mono text-xs`} title={row.user_id}>
                      {shortRecordId(row.user_id)}
                      {row.user_email ? (
                        <span className="block font-sans text-slate-700">{row.user_email}</span>
                      ) : null}
                    </td>
                    <td className={td}>
                      <div className="flex flex-wrap gap-1">
                        <StatusBadge status={row.status} />
                        {row.status === 'pending' ? <Badge tone="amber">Review Required</Badge> : null}
                      </div>
                    </td>
                    <td className={td}>{formatConfidence(row.confidence_score)}</td>
                    <td className={`${td} whitespace-nowrap`}>{formatDateTime(row.submitted_at, '—')}</td>
                    <td className={td}>
                      <div className="flex flex-wrap gap-1">
                        <Button
                          variant="ghost"
                          className="px-2 py-1"
                          aria-label={`Details of verification ${row.id}`}
                          onClick={() => setDetails(row.id)}
                        >
                          Details
                        </Button>
                        <Button
                          variant="ghost"
                          className="px-2 py-1"
                          aria-label={`Flag the user of verification ${row.id}`}
                          onClick={() => setFlagging(row)}
                        >
                          Flag
                        </Button>
                        {row.status === 'pending' ? (
                          <>
                            <Button
                              className="px-2 py-1"
                              aria-label={`Approve verification ${row.id}`}
                              onClick={() => setActing({ id: row.id, action: 'approve' })}
                            >
                              Approve
                            </Button>
                            <Button
                              variant="danger"
                              className="px-2 py-1"
                              aria-label={`Reject verification ${row.id}`}
                              onClick={() => setActing({ id: row.id, action: 'reject' })}
                            >
                              Reject
                            </Button>
                          </>
                        ) : null}
                        {row.status === 'failed' || row.status === 'rejected' ? (
                          <Button
                            variant="secondary"
                            className="px-2 py-1"
                            aria-label={`Retrigger verification ${row.id}`}
                            onClick={() => setActing({ id: row.id, action: 'retrigger' })}
                          >
                            Retrigger
                          </Button>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </TableFrame>
            <Pager skip={skip} limit={PAGE_SIZE} total={list.data?.total_count ?? 0} onChange={setSkip} />
          </>
        )}
      </Panel>

      <VerificationDetailsDialog id={details} onClose={() => setDetails(null)} />
      <VerificationActionDialog
        action={acting?.action ?? null}
        verificationId={acting?.id ?? ''}
        onClose={() => setActing(null)}
      />
      <FlagUserDialog
        userId={flagging?.user_id ?? null}
        userLabel={flagging?.user_email ?? undefined}
        onClose={() => setFlagging(null)}
      />
    </div>
  );
}
