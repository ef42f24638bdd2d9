import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ADMIN_MESSAGES, type AdminUser } from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys, adminUsersQueryOptions } from '../../api/admin';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/field';
import { ErrorState, LoadingState } from '../../components/ui/query-state';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';
import { ConfirmDialog } from './confirm-dialog';
import { FlagUserDialog } from './flag-user-dialog';
import { formatDateTime, userVerificationLabel } from './format';
import { Badge, PageHeader, Pager, Panel, TableFrame, td, th } from './ui';
import { EditUserDialog, LockUserDialog, UserDetailsDialog } from './user-dialogs';

const PAGE_SIZE = 50;

export const isLocked = (user: Pick<AdminUser, 'locked_until'>, now = Date.now()) =>
  user.locked_until !== null && Date.parse(user.locked_until) > now;

const LABEL_TONES = {
  'Fully Verified': 'green',
  'Partially Verified': 'amber',
  Unverified: 'slate',
} as const;

function Indicator({ label, on }: { label: string; on: boolean }) {
  return (
    <span
      className={`inline-flex items-center gap-1 text-xs ${on ? 'text-emerald-800' : 'text-slate-600'}`}
      title={`${label}: ${on ? 'verified' : 'not verified'}`}
    >
      <span aria-hidden="true">{on ? '✓' : '○'}</span>
      {label}
      <span className="sr-only">{on ? ' verified' : ' not verified'}</span>
    </span>
  );
}

type Bulk = 'lock' | 'unlock' | 'delete';

/** spec 02 §2 "Users": filters, table, details, flag/unflag, and edit, lock and delete made real (issue 9). */
export function UsersPage() {
  useDocumentTitle('Users Management');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [verification, setVerification] = useState('');
  const [flagFilter, setFlagFilter] = useState('');
  const [country, setCountry] = useState('');
  const [skip, setSkip] = useState(0);
  const [viewing, setViewing] = useState<string | null>(null);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [locking, setLocking] = useState<AdminUser | null>(null);
  const [flagging, setFlagging] = useState<AdminUser | null>(null);
  const [unflagging, setUnflagging] = useState<AdminUser | null>(null);
  const [deleting, setDeleting] = useState<AdminUser[] | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulk, setBulk] = useState<Bulk | ''>('');

  const countryCode = country.trim().toUpperCase();
  const params = {
    skip,
    limit: PAGE_SIZE,
    search: search.trim() || undefined,
    verification_status: verification || undefined,
    flagged_only: flagFilter === 'flagged' ? true : undefined,
    verified_only: flagFilter === 'verified' ? true : undefined,
    // The server wants two letters; a half-typed code is not sent yet.
    country: /^[A-Z]{2}$/.test(countryCode) ? countryCode : undefined,
  };
  const list = useQuery(adminUsersQueryOptions(params));
  const users = list.data?.users ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.all });

  const setFilter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setSkip(0);
      setSelected(new Set());
    };

  const unflag = useMutation({
    mutationFn: (user: AdminUser) => adminApi.unflagUser(user.id, {}),
    onSuccess: async () => {
      toast.success('User unflagged successfully');
      setUnflagging(null);
      await refresh();
    },
    onError: (error) => toast.error(adminErrorMessage(error, 'Failed to unflag user')),
  });
  const unlock = useMutation({
    mutationFn: (user: AdminUser) => adminApi.unlockUser(user.id),
    onSuccess: async () => {
      toast.success('User unlocked successfully');
      await refresh();
    },
    onError: (error) => toast.error(adminErrorMessage(error, 'Failed to unlock user')),
  });
  const remove = useMutation({
    mutationFn: async (targets: AdminUser[]) => {
      for (const user of targets) await adminApi.deleteUser(user.id, {});
    },
    onSuccess: async (_data, targets) => {
      toast.success(targets.length === 1 ? 'User deleted successfully' : `${targets.length} users deleted`);
      setDeleting(null);
      setSelected(new Set());
      await refresh();
    },
    onError: async (error) => {
      toast.error(adminErrorMessage(error, 'Failed to delete user'));
      setDeleting(null);
      await refresh();
    },
  });
  const bulkLock = useMutation({
    mutationFn: async ({ action, targets }: { action: 'lock' | 'unlock'; targets: AdminUser[] }) => {
      for (const user of targets) {
        if (action === 'lock') await adminApi.lockUser(user.id, {});
        else await adminApi.unlockUser(user.id);
      }
    },
    onSuccess: async (_data, { action, targets }) => {
      toast.success(`${targets.length} users ${action === 'lock' ? 'locked' : 'unlocked'}`);
      setSelected(new Set());
      setBulk('');
      await refresh();
    },
    onError: async (error, { action }) => {
      toast.error(adminErrorMessage(error, `Failed to ${action} users`));
      await refresh();
    },
  });

  const selectedUsers = users.filter((user) => selected.has(user.id));
  const applyBulk = () => {
    if (!bulk || selectedUsers.length === 0) return;
    if (bulk === 'delete') setDeleting(selectedUsers);
    else bulkLock.mutate({ action: bulk, targets: selectedUsers });
  };
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="space-y-6">
      <Link to="/backoffice" className="text-sm font-semibold text-indigo-700 hover:text-indigo-900">
        ← Back to Dashboard
      </Link>
      <PageHeader title="Users Management">
        <Button variant="secondary" onClick={() => void list.refetch()}>
          Refresh
        </Button>
      </PageHeader>

      <Panel>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <TextField
            label="Search"
            type="search"
            placeholder="Name, e-mail or username"
            value={search}
            onChange={(event) => setFilter(setSearch)(event.target.value)}
          />
          <SelectField
            label="Verification status"
            value={verification}
            onChange={(event) => setFilter(setVerification)(event.target.value)}
          >
            <option value="">All</option>
            <option value="verified">Verified</option>
            <option value="unverified">Unverified</option>
            <option value="pending">Pending</option>
          </SelectField>
          <SelectField
            label="Flag status"
            value={flagFilter}
            onChange={(event) => setFilter(setFlagFilter)(event.target.value)}
          >
            <option value="">All</option>
            <option value="flagged">Flagged Only</option>
            <option value="verified">Verified Only</option>
          </SelectField>
          <TextField
            label="Country"
            placeholder="US, CA, GB"
            maxLength={2}
            value={country}
            onChange={(event) => setFilter(setCountry)(event.target.value)}
          />
        </div>
      </Panel>

      <Panel>
        <div className="mb-3 flex flex-wrap items-end gap-2">
          <SelectField
            label="Bulk Actions"
            value={bulk}
            onChange={(event) => setBulk(event.target.value as Bulk | '')}
          >
            <option value="">Choose an action</option>
            <option value="lock">Suspend Selected</option>
            <option value="unlock">Activate Selected</option>
            <option value="delete">Delete Selected</option>
          </SelectField>
          <Button
            variant="secondary"
            disabled={!bulk || selectedUsers.length === 0}
            busy={bulkLock.isPending}
            onClick={applyBulk}
          >
            Apply to {selectedUsers.length} selected
          </Button>
        </div>
        {list.isPending ? (
          <LoadingState label="Loading users…" />
        ) : list.isError ? (
          <ErrorState
            error={list.error}
            fallback="Failed to load users"
            onRetry={() => void list.refetch()}
          />
        ) : users.length === 0 ? (
          <p className="text-sm text-slate-700">No users match these filters.</p>
        ) : (
          <>
            <TableFrame label="Users">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={th}>
                    <span className="sr-only">Select</span>
                  </th>
                  <th scope="col" className={th}>
                    User
                  </th>
                  <th scope="col" className={th}>
                    Verification Status
                  </th>
                  <th scope="col" className={th}>
                    Location
                  </th>
                  <th scope="col" className={th}>
                    Verifications
                  </th>
                  <th scope="col" className={th}>
                    OAuth Auths
                  </th>
                  <th scope="col" className={th}>
                    Last Login
                  </th>
                  <th scope="col" className={th}>
                    Status
                  </th>
                  <th scope="col" className={th}>
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {users.map((user) => {
                  const label = userVerificationLabel(user);
                  const name = user.full_name || user.username || user.email;
                  const locked = isLocked(user);
                  return (
                    <tr key={user.id} data-testid="user-row">
                      <td className={td}>
                        <input
                          type="checkbox"
                          className="size-4"
                          aria-label={`Select ${user.email}`}
                          checked={selected.has(user.id)}
                          onChange={() => toggle(user.id)}
                        />
                      </td>
                      <td className={td}>
                        <p className="font-medium text-slate-900">{name}</p>
                        <p className="text-xs text-slate-700">{user.email}</p>
                      </td>
                      <td className={td}>
                        <Badge tone={LABEL_TONES[label]}>{label}</Badge>
                        <div className="mt-1 flex flex-wrap gap-2">
                          <Indicator label="Age" on={user.age_verified} />
                          <Indicator label="Location" on={user.location_verified} />
                          <Indicator label="Identity" on={user.identity_verified} />
                        </div>
                      </td>
                      <td className={td}>
                        <p>{user.country || 'Unknown'}</p>
                        {user.state ? <p className="text-xs text-slate-700">{user.state}</p> : null}
                      </td>
                      <td className={td}>{user.total_verifications}</td>
                      <td className={td}>{user.oauth_authorizations}</td>
                      <td className={`${td} whitespace-nowrap`}>{formatDateTime(user.last_login)}</td>
                      <td className={td}>
                        <div className="flex flex-wrap gap-1">
                          {user.is_flagged ? <Badge tone="red">Flagged</Badge> : null}
                          {locked ? <Badge tone="amber">Locked</Badge> : null}
                          {!user.is_flagged && !locked ? <Badge tone="green">OK</Badge> : null}
                        </div>
                      </td>
                      <td className={td}>
                        <div className="flex flex-wrap gap-1">
                          <Button
                            variant="ghost"
                            className="px-2 py-1"
                            aria-label={`View ${user.email}`}
                            onClick={() => setViewing(user.id)}
                          >
                            View
                          </Button>
                          <Button
                            variant="ghost"
                            className="px-2 py-1"
                            aria-label={`Edit ${user.email}`}
                            onClick={() => setEditing(user)}
                          >
                            Edit
                          </Button>
                          {locked ? (
                            <Button
                              variant="ghost"
                              className="px-2 py-1"
                              aria-label={`Unlock ${user.email}`}
                              onClick={() => unlock.mutate(user)}
                            >
                              Unlock
                            </Button>
                          ) : (
                            <Button
                              variant="ghost"
                              className="px-2 py-1"
                              aria-label={`Lock ${user.email}`}
                              onClick={() => setLocking(user)}
                            >
                              Lock
                            </Button>
                          )}
                          {user.is_flagged ? (
                            <Button
                              variant="ghost"
                              className="px-2 py-1"
                              aria-label={`Unflag ${user.email}`}
                              onClick={() => setUnflagging(user)}
                            >
                              Unflag
                            </Button>
                          ) : (
                            <Button
                              variant="ghost"
                              className="px-2 py-1"
                              aria-label={`Flag ${user.email}`}
                              onClick={() => setFlagging(user)}
                            >
                              Flag
                            </Button>
                          )}
                          <Button
                            variant="ghost"
                            className="px-2 py-1 text-red-800"
                            aria-label={`Delete ${user.email}`}
                            onClick={() => setDeleting([user])}
                          >
                            Delete
                          </Button>
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </TableFrame>
            <Pager
              skip={skip}
              limit={PAGE_SIZE}
              total={list.data?.total_count ?? 0}
              onChange={(next) => {
                setSkip(next);
                setSelected(new Set());
              }}
            />
          </>
        )}
      </Panel>

      <UserDetailsDialog userId={viewing} onClose={() => setViewing(null)} />
      <EditUserDialog user={editing} onClose={() => setEditing(null)} />
      <LockUserDialog user={locking} onClose={() => setLocking(null)} />
      <FlagUserDialog
        userId={flagging?.id ?? null}
        userLabel={flagging?.email}
        onClose={() => setFlagging(null)}
      />
      <ConfirmDialog
        open={unflagging !== null}
        title="Unflag user"
        message={ADMIN_MESSAGES.unflagConfirm}
        confirmLabel="Unflag"
        busy={unflag.isPending}
        onConfirm={() => unflagging && unflag.mutate(unflagging)}
        onCancel={() => setUnflagging(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={deleting && deleting.length > 1 ? `Delete ${deleting.length} users` : 'Delete user'}
        message={
          deleting && deleting.length > 1
            ? `Are you sure you want to delete these ${deleting.length} users? Their personal data and verification media are erased; the audit trail is kept. This cannot be undone.`
            : `Are you sure you want to delete ${deleting?.[0]?.email ?? 'this user'}? Their personal data and verification media are erased; the audit trail is kept. This cannot be undone.`
        }
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
