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
import { Button } from '../../components/ui/button';
import { CheckboxField, SelectField, TextField } from '../../components/ui/field';
import { ErrorState, LoadingState } from '../../components/ui/query-state';
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
import { Badge, PageHeader, Pager, Panel, StatCard, TableFrame, td, th, type Tone } from './ui';
import { Tabs } from './tabs';
import { TextAreaField } from './textarea-field';

const PAGE_SIZE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATUS_TONES: Record<GrantStatus, Tone> = { Active: 'green', Expired: 'slate', Revoked: 'red' };

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

/** An id filter: sent only once it is a whole UUID (the API refuses anything else). */
function useIdFilter() {
  const [text, setText] = useState('');
  const trimmed = text.trim();
  const valid = trimmed === '' || UUID.test(trimmed);
  return {
    text,
    setText,
    value: valid && trimmed ? trimmed : undefined,
    error: valid ? undefined : 'Enter a full id',
  };
}

/** spec 02 §2 "Tokens": access tokens and OAuth authorizations, revocable while active. */
export function TokensPage() {
  useDocumentTitle('Tokens & OAuth');
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>('tokens');
  const userId = useIdFilter();
  const partnerId = useIdFilter();
  const [status, setStatus] = useState<'all' | 'active' | 'inactive'>('active');
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
    user_id: userId.value,
    partner_id: partnerId.value,
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
  const now = Date.now();
  const tokenRows = tokens.data?.tokens ?? [];
  const authRows = authorizations.data?.authorizations ?? [];
  const active = tab === 'tokens' ? tokens : authorizations;

  return (
    <div className="space-y-6">
      <PageHeader title="Tokens & OAuth">
        <Button variant="secondary" onClick={() => void active.refetch()}>
          Refresh
        </Button>
      </PageHeader>
      <Panel>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <TextField
            label="User ID"
            value={userId.text}
            error={userId.error}
            onChange={(event) => {
              userId.setText(event.target.value);
              resetPage();
            }}
          />
          <TextField
            label="Partner ID"
            value={partnerId.text}
            error={partnerId.error}
            onChange={(event) => {
              partnerId.setText(event.target.value);
              resetPage();
            }}
          />
          <SelectField
            label="Status"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as typeof status);
              resetPage();
            }}
          >
            <option value="all">All</option>
            <option value="active">Active Only</option>
            <option value="inactive">Inactive Only</option>
          </SelectField>
        </div>
      </Panel>

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
            <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
              <StatCard label="Total Tokens" value={tokens.data?.total_count ?? '—'} />
              <StatCard
                label="Active"
                value={tokenRows.filter((t) => grantStatus(t, now) === 'Active').length}
              />
              <StatCard
                label="Expired"
                value={tokenRows.filter((t) => grantStatus(t, now) === 'Expired').length}
              />
              <StatCard
                label="Revoked"
                value={tokenRows.filter((t) => grantStatus(t, now) === 'Revoked').length}
              />
            </dl>
            <Panel>
              {tokens.isPending ? (
                <LoadingState label="Loading tokens…" />
              ) : tokens.isError ? (
                <ErrorState
                  error={tokens.error}
                  fallback="Failed to load tokens"
                  onRetry={() => void tokens.refetch()}
                />
              ) : tokenRows.length === 0 ? (
                <p className="text-sm text-slate-700">No tokens match these filters.</p>
              ) : (
                <>
                  <TableFrame label="Access tokens">
                    <thead className="bg-slate-50">
                      <tr>
                        <th scope="col" className={th}>
                          ID
                        </th>
                        <th scope="col" className={th}>
                          Created
                        </th>
                        <th scope="col" className={th}>
                          User
                        </th>
                        <th scope="col" className={th}>
                          Partner
                        </th>
                        <th scope="col" className={th}>
                          Scopes
                        </th>
                        <th scope="col" className={th}>
                          Status
                        </th>
                        <th scope="col" className={th}>
                          Expires
                        </th>
                        <th scope="col" className={th}>
                          Last used
                        </th>
                        <th scope="col" className={th}>
                          Actions
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {tokenRows.map((token) => {
                        const state = grantStatus(token, now);
                        return (
                          <tr key={token.id} data-testid="token-row">
                            <td className={`${td} font-mono text-xs`} title={token.id}>
                              {shortTokenId(token.id)}
                              <span className="block font-sans text-slate-700">
                                {token.kind === 'refresh_token' ? 'refresh token' : 'access token'}
                              </span>
                            </td>
                            <td className={`${td} whitespace-nowrap`}>
                              {formatDateTime(token.created_at, '—')}
                            </td>
                            <td className={`${td} font-mono text-xs`} title={token.user_id ?? undefined}>
                              {token.user_id ? shortId(token.user_id) : '—'}
                            </td>
                            <td className={`${td} font-mono text-xs`} title={token.partner_id ?? undefined}>
                              {token.partner_id ? shortId(token.partner_id) : '—'}
                            </td>
                            <td className={td}>
                              <Scopes scopes={token.scopes} />
                            </td>
                            <td className={td}>
                              <Badge tone={STATUS_TONES[state]}>{state}</Badge>
                            </td>
                            <td className={td}>
                              <Expiry expiresAt={token.expires_at} />
                            </td>
                            <td className={`${td} whitespace-nowrap`}>
                              {formatDateTime(token.last_used_at)}
                            </td>
                            <td className={td}>
                              {state === 'Active' ? (
                                <Button
                                  variant="danger"
                                  className="px-2 py-1"
                                  aria-label={`Revoke token ${shortTokenId(token.id)}`}
                                  onClick={() => setRevoking({ kind: 'token', item: token })}
                                >
                                  Revoke
                                </Button>
                              ) : null}
                            </td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </TableFrame>
                  <Pager
                    skip={skip}
                    limit={PAGE_SIZE}
                    total={tokens.data?.total_count ?? 0}
                    onChange={setSkip}
                  />
                </>
              )}
            </Panel>
          </div>
        ) : (
          <div className="space-y-6">
            <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
              <StatCard label="Total" value={authorizations.data?.total_count ?? '—'} />
              <StatCard
                label="Active"
                value={authRows.filter((a) => grantStatus(a, now) === 'Active').length}
              />
              <StatCard
                label="Expired"
                value={authRows.filter((a) => grantStatus(a, now) === 'Expired').length}
              />
              <StatCard label="Unique Users" value={new Set(authRows.map((a) => a.user_id)).size} />
            </dl>
            <Panel>
              {authorizations.isPending ? (
                <LoadingState label="Loading OAuth authorizations…" />
              ) : authorizations.isError ? (
                <ErrorState
                  error={authorizations.error}
                  fallback="Failed to load OAuth authorizations"
                  onRetry={() => void authorizations.refetch()}
                />
              ) : authRows.length === 0 ? (
                <p className="text-sm text-slate-700">No OAuth authorizations match these filters.</p>
              ) : (
                <>
                  <TableFrame label="OAuth authorizations">
                    <thead className="bg-slate-50">
                      <tr>
                        <th scope="col" className={th}>
                          ID
                        </th>
                        <th scope="col" className={th}>
                          User
                        </th>
                        <th scope="col" className={th}>
                          Partner / site
                        </th>
                        <th scope="col" className={th}>
                          Scopes granted
                        </th>
                        <th scope="col" className={th}>
                          Status
                        </th>
                        <th scope="col" className={th}>
                          Consent
                        </th>
                        <th scope="col" className={th}>
                          Expires
                        </th>
                        <th scope="col" className={th}>
                          Last used
                        </th>
                        <th scope="col" className={th}>
                          Actions
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {authRows.map((grant) => {
                        const state = grantStatus(grant, now);
                        return (
                          <tr key={grant.id} data-testid="authorization-row">
                            <td className={`${td} font-mono text-xs`} title={grant.id}>
                              {shortId(grant.id)}
                            </td>
                            <td className={td} title={grant.user_id}>
                              {grant.user_email ?? (
                                <span className="font-mono text-xs">{shortId(grant.user_id)}</span>
                              )}
                            </td>
                            <td className={td}>
                              <p>{grant.partner_name ?? '—'}</p>
                              <p className="text-xs text-slate-700">{grant.site_name ?? '—'}</p>
                            </td>
                            <td className={td}>
                              <Scopes scopes={grant.scopes_granted} />
                            </td>
                            <td className={td}>
                              <Badge tone={STATUS_TONES[state]}>{state}</Badge>
                            </td>
                            <td className={`${td} whitespace-nowrap`}>
                              {formatDateTime(grant.consent_given_at, '—')}
                            </td>
                            <td className={td}>
                              <Expiry expiresAt={grant.expires_at} />
                            </td>
                            <td className={`${td} whitespace-nowrap`}>
                              {formatDateTime(grant.last_used_at)}
                            </td>
                            <td className={td}>
                              {state === 'Active' ? (
                                <Button
                                  variant="danger"
                                  className="px-2 py-1"
                                  aria-label={`Revoke authorization ${shortId(grant.id)}`}
                                  onClick={() => setRevoking({ kind: 'authorization', item: grant })}
                                >
                                  Revoke
                                </Button>
                              ) : null}
                            </td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </TableFrame>
                  <Pager
                    skip={skip}
                    limit={PAGE_SIZE}
                    total={authorizations.data?.total_count ?? 0}
                    onChange={setSkip}
                  />
                </>
              )}
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
