import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ADMIN_MESSAGES, type AdminAccessToken, type AdminOAuthAuthorization } from '@attestly/contracts';
import {
  adminApi,
  adminAuthorizationsQueryOptions,
  adminErrorMessage,
  adminKeys,
  adminTokensQueryOptions,
} from '../../api/admin';
import { CheckboxField, TextField } from '../../components/ui/field';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';
import { ConfirmDialog } from './confirm-dialog';
import {
  formatDateTime,
  grantStatus,
  remainingTime,
  shortId,
  shortTokenId,
  type GrantStatus,
} from './format';
import { FilterBar, ListHeader, PagedTable, RowAction, SelectFilter, StatGrid, type Column } from './list-ui';
import { Badge, Panel, StatCard, type Tone } from './ui';
import { Tabs } from './tabs';
import { TextAreaField } from './textarea-field';

const PAGE_SIZE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATUS_TONES: Record<GrantStatus, Tone> = { Active: 'green', Expired: 'slate', Revoked: 'red' };

const STATUS_OPTIONS = [
  ['all', 'All'],
  ['active', 'Active Only'],
  ['inactive', 'Inactive Only'],
] as const;

type Tab = 'tokens' | 'authorizations';
const TABS = [
  { id: 'tokens', label: 'Access Tokens' },
  { id: 'authorizations', label: 'OAuth Authorizations' },
] as const;

function Scopes({ scopes }: { scopes: readonly string[] }) {
  return (
    <div className="flex max-w-xs flex-wrap gap-1">
      {scopes.map((scope) => (
        <Badge key={scope}>{scope}</Badge>
      ))}
    </div>
  );
}

function Expiry({ expiresAt }: { expiresAt: string | null }) {
  if (!expiresAt) return <span>—</span>;
  return (
    <span className="whitespace-nowrap">
      {formatDateTime(expiresAt, '—')}
      <span className="block text-xs text-slate-700">{remainingTime(expiresAt)}</span>
    </span>
  );
}

type Grant = AdminAccessToken | AdminOAuthAuthorization;

/**
 * The columns tokens and OAuth authorizations share: status, (consent,) expiry, last use, and Revoke while active.
 * `consent` adds the Consent column after Status.
 */
function grantColumns<Row extends Grant>(
  now: number,
  {
    label,
    revoke,
    consent,
  }: { label(row: Row): string; revoke(row: Row): void; consent?: (row: Row) => string },
): Column<Row>[] {
  return [
    {
      header: 'Status',
      cell: (row) => {
        const state = grantStatus(row, now);
        return <Badge tone={STATUS_TONES[state]}>{state}</Badge>;
      },
    },
    ...(consent ? [{ header: 'Consent', className: 'whitespace-nowrap', cell: consent }] : []),
    { header: 'Expires', cell: (row) => <Expiry expiresAt={row.expires_at} /> },
    {
      header: 'Last used',
      className: 'whitespace-nowrap',
      cell: (row) => formatDateTime(row.last_used_at),
    },
    {
      header: 'Actions',
      cell: (row) =>
        grantStatus(row, now) === 'Active' ? (
          <RowAction variant="danger" label={label(row)} onClick={() => revoke(row)}>
            Revoke
          </RowAction>
        ) : null,
    },
  ];
}

/**
 * A filter by person or partner (issue 25 item 11): a whole UUID filters by id, anything else of two characters or
 * more by name or e-mail address (the server matches part of either).
 */
function useWhoFilter() {
  const [text, setText] = useState('');
  const trimmed = text.trim();
  const id = UUID.test(trimmed) ? trimmed : undefined;
  return {
    text,
    setText,
    id,
    name: !id && [...trimmed].length >= 2 ? trimmed : undefined,
  };
}

/** spec 02 §2 "Tokens": access tokens and OAuth authorizations, revocable while active. */
export function TokensPage() {
  useDocumentTitle('Tokens & OAuth');
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>('tokens');
  const userFilter = useWhoFilter();
  const partnerFilter = useWhoFilter();
  const [status, setStatus] = useState<(typeof STATUS_OPTIONS)[number][0]>('active');
  const [skip, setSkip] = useState(0);
  const [revoking, setRevoking] = useState<
    | { kind: 'token'; item: AdminAccessToken }
    | { kind: 'authorization'; item: AdminOAuthAuthorization }
    | null
  >(null);
  const [reason, setReason] = useState('');
  const [notifyUser, setNotifyUser] = useState(false);
  const [notifyPartner, setNotifyPartner] = useState(false);

  const params = {
    skip,
    limit: PAGE_SIZE,
    user_id: userFilter.id,
    user: userFilter.name,
    partner_id: partnerFilter.id,
    partner: partnerFilter.name,
    active_only: status === 'all' ? undefined : status === 'active',
  };
  const tokens = useQuery({ ...adminTokensQueryOptions(params), enabled: tab === 'tokens' });
  const authorizations = useQuery({
    ...adminAuthorizationsQueryOptions(params),
    enabled: tab === 'authorizations',
  });

  const revoke = useMutation({
    mutationFn: async (target: NonNullable<typeof revoking>) => {
      const body = { reason: reason.trim() || null, notify_user: notifyUser, notify_partner: notifyPartner };
      if (target.kind === 'token') await adminApi.revokeToken(target.item.id, body);
      else await adminApi.revokeAuthorization(target.item.id, body);
    },
    onSuccess: async (_data, target) => {
      toast.success(
        target.kind === 'token' ? 'Token revoked successfully' : 'OAuth authorization revoked successfully',
      );
      closeRevoke();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error, target) =>
      toast.error(
        adminErrorMessage(
          error,
          target.kind === 'token' ? 'Failed to revoke token' : 'Failed to revoke OAuth authorization',
        ),
      ),
  });
  const closeRevoke = () => {
    setRevoking(null);
    setReason('');
    setNotifyUser(false);
    setNotifyPartner(false);
  };

  const resetPage = () => setSkip(0);
  const paging = { skip, limit: PAGE_SIZE, onPage: setSkip };
  const now = Date.now();
  const tokenRows = tokens.data?.tokens ?? [];
  const authRows = authorizations.data?.authorizations ?? [];
  const active = tab === 'tokens' ? tokens : authorizations;
  const countIn = (rows: readonly Grant[], state: GrantStatus) =>
    rows.filter((row) => grantStatus(row, now) === state).length;

  const tokenColumns: Column<AdminAccessToken>[] = [
    {
      // Tokens are stored only as hashes (issue 21 item 2): the fingerprint of that hash names a token (spec 02 §9's
      // shortening leaves its 12 characters whole).
      header: 'ID',
      className: 'font-mono text-xs',
      title: (token) => `Fingerprint ${token.fingerprint} (SHA-256 of the token)`,
      cell: (token) => (
        <>
          {shortTokenId(token.fingerprint)}
          <span className="block font-sans text-slate-700">
            {token.kind === 'refresh_token' ? 'refresh token' : 'access token'}
          </span>
        </>
      ),
    },
    {
      header: 'Created',
      className: 'whitespace-nowrap',
      cell: (token) => formatDateTime(token.created_at, '—'),
    },
    {
      header: 'User',
      className: 'font-mono text-xs',
      title: (token) => token.user_id ?? undefined,
      cell: (token) => (token.user_id ? shortId(token.user_id) : '—'),
    },
    {
      header: 'Partner',
      className: 'font-mono text-xs',
      title: (token) => token.partner_id ?? undefined,
      cell: (token) => (token.partner_id ? shortId(token.partner_id) : '—'),
    },
    { header: 'Scopes', cell: (token) => <Scopes scopes={token.scopes} /> },
    ...grantColumns<AdminAccessToken>(now, {
      label: (token) => `Revoke token ${token.fingerprint}`,
      revoke: (token) => setRevoking({ kind: 'token', item: token }),
    }),
  ];

  const authorizationColumns: Column<AdminOAuthAuthorization>[] = [
    {
      header: 'ID',
      className: 'font-mono text-xs',
      title: (grant) => grant.id,
      cell: (grant) => shortId(grant.id),
    },
    {
      header: 'User',
      title: (grant) => grant.user_id,
      cell: (grant) =>
        grant.user_email ?? <span className="font-mono text-xs">{shortId(grant.user_id)}</span>,
    },
    {
      header: 'Partner / site',
      cell: (grant) => (
        <>
          <p>{grant.partner_name ?? '—'}</p>
          <p className="text-xs text-slate-700">{grant.site_name ?? '—'}</p>
        </>
      ),
    },
    { header: 'Scopes granted', cell: (grant) => <Scopes scopes={grant.scopes_granted} /> },
    ...grantColumns<AdminOAuthAuthorization>(now, {
      label: (grant) => `Revoke authorization ${shortId(grant.id)}`,
      revoke: (grant) => setRevoking({ kind: 'authorization', item: grant }),
      consent: (grant) => formatDateTime(grant.consent_given_at, '—'),
    }),
  ];

  return (
    <div className="space-y-6">
      <ListHeader title="Tokens & OAuth" onRefresh={() => void active.refetch()} />
      <FilterBar columns={3}>
        <TextField
          label="User"
          placeholder="E-mail, name or id"
          value={userFilter.text}
          onChange={(event) => {
            userFilter.setText(event.target.value);
            resetPage();
          }}
        />
        <TextField
          label="Partner"
          placeholder="Name, e-mail or id"
          value={partnerFilter.text}
          onChange={(event) => {
            partnerFilter.setText(event.target.value);
            resetPage();
          }}
        />
        <SelectFilter
          label="Status"
          value={status}
          options={STATUS_OPTIONS}
          onChange={(value) => {
            setStatus(value);
            resetPage();
          }}
        />
      </FilterBar>

      <Tabs<Tab>
        label="Token lists"
        tabs={TABS}
        value={tab}
        onChange={(next) => {
          setTab(next);
          resetPage();
        }}
      >
        {tab === 'tokens' ? (
          <div className="space-y-6">
            <StatGrid>
              <StatCard label="Total Tokens" value={tokens.data?.total_count ?? '—'} />
              <StatCard label="Active" value={countIn(tokenRows, 'Active')} />
              <StatCard label="Expired" value={countIn(tokenRows, 'Expired')} />
              <StatCard label="Revoked" value={countIn(tokenRows, 'Revoked')} />
            </StatGrid>
            <Panel>
              <PagedTable
                query={tokens}
                loading="Loading tokens…"
                failed="Failed to load tokens"
                empty="No tokens match these filters."
                label="Access tokens"
                columns={tokenColumns}
                rows={tokenRows}
                rowTestId="token-row"
                {...paging}
              />
            </Panel>
          </div>
        ) : (
          <div className="space-y-6">
            <StatGrid>
              <StatCard label="Total" value={authorizations.data?.total_count ?? '—'} />
              <StatCard label="Active" value={countIn(authRows, 'Active')} />
              <StatCard label="Expired" value={countIn(authRows, 'Expired')} />
              <StatCard label="Unique Users" value={new Set(authRows.map((a) => a.user_id)).size} />
            </StatGrid>
            <Panel>
              <PagedTable
                query={authorizations}
                loading="Loading OAuth authorizations…"
                failed="Failed to load OAuth authorizations"
                empty="No OAuth authorizations match these filters."
                label="OAuth authorizations"
                columns={authorizationColumns}
                rows={authRows}
                rowTestId="authorization-row"
                {...paging}
              />
            </Panel>
          </div>
        )}
      </Tabs>

      <ConfirmDialog
        open={revoking !== null}
        title={revoking?.kind === 'authorization' ? 'Revoke OAuth authorization' : 'Revoke token'}
        message={
          revoking?.kind === 'authorization'
            ? ADMIN_MESSAGES.revokeAuthorizationConfirm
            : ADMIN_MESSAGES.revokeTokenConfirm
        }
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={closeRevoke}
      >
        <div className="space-y-3">
          <TextAreaField
            label="Reason (optional)"
            placeholder="Revoked by admin"
            value={reason}
            maxLength={500}
            onChange={(event) => setReason(event.target.value)}
          />
          <CheckboxField
            label="Tell the user by e-mail"
            checked={notifyUser}
            onChange={(event) => setNotifyUser(event.target.checked)}
          />
          <CheckboxField
            label="Tell the partner"
            checked={notifyPartner}
            onChange={(event) => setNotifyPartner(event.target.checked)}
          />
        </div>
      </ConfirmDialog>
    </div>
  );
}
