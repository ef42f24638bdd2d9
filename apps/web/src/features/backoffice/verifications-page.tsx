import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import type { AdminVerification } from '@attestly/contracts';
import { adminErrorMessage, adminVerificationsQueryOptions } from '../../api/admin';

import { Button } from '../../components/ui/button';
import { CheckboxField, TextField } from '../../components/ui/field';
import { useCardCheck } from '../../lib/capabilities';
import { useDocumentTitle } from '../../lib/use-document-title';
import { FlagUserDialog } from './flag-user-dialog';
import { CopyableId } from './copyable-id';
import { dayToIso, formatConfidence, formatDateTime } from './format';
import {
  ErrorBox,
  FilterBar,
  ListHeader,
  PagedTable,
  RowAction,
  RowActions,
  SearchFilter,
  SelectFilter,
  StatGrid,
  type Column,
} from './list-ui';
import { Badge, Panel, StatCard, StatusBadge } from './ui';
import type { VerificationAction } from './verification-actions';
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
/** The credit-card filter only where this installation offers card checks (Stripe configured). */
const methodOptions = (cardCheck: boolean) =>
  [
    ['document', 'Document'],
    ...(cardCheck ? ([['credit_card', 'Credit Card']] as const) : []),
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
  const cardCheck = useCardCheck() !== null;
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [type, setType] = useState('');
  const [method, setMethod] = useState('');
  const [needsReview, setNeedsReview] = useState(false);
  const [dates, setDates] = useState({ start: '', end: '' });
  const [range, setRange] = useState({ start: '', end: '' });
  const [skip, setSkip] = useState(0);
  // The details dialog, opened on a case, with one of the decision forms open or none.
  const [open, setOpen] = useState<{ id: string; action: VerificationAction | null } | null>(null);
  const setActing = (value: { id: string; action: VerificationAction }) => setOpen(value);
  const setDetails = (id: string) => setOpen({ id, action: null });
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

  const columns: Column<AdminVerification>[] = [
    {
      header: 'Type',
      cell: (row) => (
        <div className="flex flex-wrap gap-1">
          <Badge tone="indigo">{row.verification_type}</Badge>
          <Badge tone="slate">{row.verification_method.replace(/_/g, ' ')}</Badge>
        </div>
      ),
    },
    {
      header: 'ID',
      className: 'min-w-40 max-w-48',
      cell: (row) => <CopyableId id={row.id} label="verification ID" />,
    },
    {
      header: 'User',
      className: 'min-w-40 max-w-48',
      cell: (row) => (
        <>
          {row.user_email ? <span className="block break-all text-slate-900">{row.user_email}</span> : null}
          <CopyableId id={row.user_id} label="user ID" />
        </>
      ),
    },
    {
      header: 'Status',
      cell: (row) => (
        <div className="flex flex-wrap gap-1">
          <StatusBadge status={row.status} />
          {row.status === 'pending' ? <Badge tone="amber">Review Required</Badge> : null}
        </div>
      ),
    },
    {
      header: 'Confidence',
      title: (row) => row.confidence_note ?? undefined,
      cell: (row) =>
        row.confidence_score === null && row.confidence_note ? (
          <span className="text-xs text-amber-900">Holder not confirmed</span>
        ) : (
          formatConfidence(row.confidence_score)
        ),
    },
    {
      header: 'Submitted',
      className: 'whitespace-nowrap',
      cell: (row) => formatDateTime(row.submitted_at, '—'),
    },
    {
      header: 'Actions',
      pinned: true,
      className: 'min-w-36',
      cell: (row) => (
        <RowActions>
          <RowAction label={`Details of verification ${row.id}`} onClick={() => setDetails(row.id)}>
            Details
          </RowAction>
          <RowAction label={`Flag the user of verification ${row.id}`} onClick={() => setFlagging(row)}>
            Flag
          </RowAction>
          {row.status === 'pending' ? (
            <>
              <RowAction
                variant="primary"
                label={`Approve verification ${row.id}`}
                onClick={() => setActing({ id: row.id, action: 'approve' })}
              >
                Approve
              </RowAction>
              <RowAction
                variant="danger"
                label={`Reject verification ${row.id}`}
                onClick={() => setActing({ id: row.id, action: 'reject' })}
              >
                Reject
              </RowAction>
            </>
          ) : null}
          {row.can_retrigger ? (
            <RowAction
              variant="secondary"
              label={`Retrigger verification ${row.id}`}
              onClick={() => setActing({ id: row.id, action: 'retrigger' })}
            >
              Retrigger
            </RowAction>
          ) : null}
        </RowActions>
      ),
    },
  ];

  return (
    <div className="space-y-6">
      <ListHeader title="Verifications" onRefresh={() => void list.refetch()} />

      <FilterBar
        columns={4}
        footer={
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
        }
      >
        <SearchFilter placeholder="Id, user id or e-mail" value={search} onChange={filter(setSearch)} />
        <SelectFilter
          label="Status"
          all="All"
          options={STATUS_OPTIONS}
          value={status}
          onChange={filter(setStatus)}
        />
        <SelectFilter label="Type" all="All" options={TYPE_OPTIONS} value={type} onChange={filter(setType)} />
        <SelectFilter
          label="Method"
          all="All"
          options={methodOptions(cardCheck)}
          value={method}
          onChange={filter(setMethod)}
        />
      </FilterBar>

      {list.isError ? (
        <ErrorBox>
          <strong>Error:</strong> Failed to load verifications:{' '}
          {adminErrorMessage(list.error, 'Unknown error')}
        </ErrorBox>
      ) : null}

      <StatGrid>
        <StatCard label="Total" value={list.data?.total_count ?? '—'} />
        <StatCard label="Pending Review" value={counts.pending} />
        <StatCard label="Verified" value={counts.verified} />
        <StatCard label="Failed" value={counts.failed} />
      </StatGrid>

      <Panel>
        <PagedTable
          query={list}
          loading="Loading verifications…"
          empty="No verifications match these filters."
          label="Verifications"
          columns={columns}
          rows={rows}
          rowTestId="verification-row"
          skip={skip}
          limit={PAGE_SIZE}
          onPage={setSkip}
        />
      </Panel>

      <VerificationDetailsDialog
        id={open?.id ?? null}
        action={open?.action ?? null}
        onAction={(action) => setOpen((current) => (current ? { ...current, action } : current))}
        onClose={() => setOpen(null)}
      />
      <FlagUserDialog
        userId={flagging?.user_id ?? null}
        userLabel={flagging?.user_email ?? undefined}
        onClose={() => setFlagging(null)}
      />
    </div>
  );
}
