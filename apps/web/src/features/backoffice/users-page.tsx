import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ADMIN_MESSAGES, type AdminUser } from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys, adminUsersQueryOptions } from '../../api/admin';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AddUserDialog } from './add-user-dialog';
import { ConfirmDialog } from './confirm-dialog';
import { FlagUserDialog } from './flag-user-dialog';
import { formatDateTime, userVerificationLabel } from './format';
import {
  FilterBar,
  ListHeader,
  PagedTable,
  RowAction,
  RowActions,
  SearchFilter,
  SelectFilter,
  type Column,
} from './list-ui';
import { Badge, Panel } from './ui';
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

const VERIFICATION_OPTIONS = [
  ['verified', 'Verified'],
  ['unverified', 'Unverified'],
  ['pending', 'Pending'],
] as const;
const FLAG_OPTIONS = [
  ['flagged', 'Flagged Only'],
  ['verified', 'Verified Only'],
] as const;
const BULK_OPTIONS = [
  ['lock', 'Suspend Selected'],
  ['unlock', 'Activate Selected'],
  ['delete', 'Delete Selected'],
] as const;

type Bulk = (typeof BULK_OPTIONS)[number][0];

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
  const [adding, setAdding] = useState(false);

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

  const now = Date.now();
  const columns: Column<AdminUser>[] = [
    {
      header: <span className="sr-only">Select</span>,
      cell: (user) => (
        <input
          type="checkbox"
          className="size-4"
          aria-label={`Select ${user.email}`}
          checked={selected.has(user.id)}
          onChange={() => toggle(user.id)}
        />
      ),
    },
    {
      header: 'User',
      cell: (user) => (
        <>
          <p className="font-medium text-slate-900">{user.full_name || user.username || user.email}</p>
          <p className="text-xs text-slate-700">{user.email}</p>
        </>
      ),
    },
    {
      header: 'Verification Status',
      cell: (user) => {
        const label = userVerificationLabel(user);
        return (
          <>
            <Badge tone={LABEL_TONES[label]}>{label}</Badge>
            <div className="mt-1 flex flex-wrap gap-2">
              <Indicator label="Age" on={user.age_verified} />
              <Indicator label="Location" on={user.location_verified} />
              <Indicator label="Identity" on={user.identity_verified} />
            </div>
          </>
        );
      },
    },
    {
      header: 'Location',
      cell: (user) => (
        <>
          <p>{user.country || 'Unknown'}</p>
          {user.state ? <p className="text-xs text-slate-700">{user.state}</p> : null}
        </>
      ),
    },
    { header: 'Verifications', cell: (user) => user.total_verifications },
    { header: 'OAuth Auths', cell: (user) => user.oauth_authorizations },
    { header: 'Last Login', className: 'whitespace-nowrap', cell: (user) => formatDateTime(user.last_login) },
    {
      header: 'Status',
      cell: (user) => {
        const locked = isLocked(user, now);
        return (
          <div className="flex flex-wrap gap-1">
            {user.is_flagged ? <Badge tone="red">Flagged</Badge> : null}
            {locked ? <Badge tone="amber">Locked</Badge> : null}
            {!user.is_flagged && !locked ? <Badge tone="green">OK</Badge> : null}
          </div>
        );
      },
    },
    {
      header: 'Actions',
      pinned: true,
      className: 'min-w-44 max-w-56',
      cell: (user) => (
        <RowActions>
          <RowAction label={`View ${user.email}`} onClick={() => setViewing(user.id)}>
            View
          </RowAction>
          <RowAction label={`Edit ${user.email}`} onClick={() => setEditing(user)}>
            Edit
          </RowAction>
          {isLocked(user, now) ? (
            <RowAction label={`Unlock ${user.email}`} onClick={() => unlock.mutate(user)}>
              Unlock
            </RowAction>
          ) : (
            <RowAction label={`Lock ${user.email}`} onClick={() => setLocking(user)}>
              Lock
            </RowAction>
          )}
          {user.is_flagged ? (
            <RowAction label={`Unflag ${user.email}`} onClick={() => setUnflagging(user)}>
              Unflag
            </RowAction>
          ) : (
            <RowAction label={`Flag ${user.email}`} onClick={() => setFlagging(user)}>
              Flag
            </RowAction>
          )}
          <RowAction
            label={`Delete ${user.email}`}
            className="text-red-800"
            onClick={() => setDeleting([user])}
          >
            Delete
          </RowAction>
        </RowActions>
      ),
    },
  ];

  return (
    <div className="space-y-6">
      <Link to="/backoffice" className="text-sm font-semibold text-indigo-700 hover:text-indigo-900">
        ← Back to Dashboard
      </Link>
      <ListHeader title="Users Management" onRefresh={() => void list.refetch()}>
        <Button onClick={() => setAdding(true)}>Add User</Button>
      </ListHeader>

      <FilterBar columns={4}>
        <SearchFilter placeholder="Name, e-mail or username" value={search} onChange={setFilter(setSearch)} />
        <SelectFilter
          label="Verification status"
          all="All"
          options={VERIFICATION_OPTIONS}
          value={verification}
          onChange={setFilter(setVerification)}
        />
        <SelectFilter
          label="Flag status"
          all="All"
          options={FLAG_OPTIONS}
          value={flagFilter}
          onChange={setFilter(setFlagFilter)}
        />
        <TextField
          label="Country"
          placeholder="US, CA, GB"
          maxLength={2}
          value={country}
          onChange={(event) => setFilter(setCountry)(event.target.value)}
        />
      </FilterBar>

      <Panel>
        <div className="mb-3 flex flex-wrap items-end gap-2">
          <SelectFilter<Bulk | ''>
            label="Bulk Actions"
            all="Choose an action"
            options={BULK_OPTIONS}
            value={bulk}
            onChange={setBulk}
          />
          <Button
            variant="secondary"
            disabled={!bulk || selectedUsers.length === 0}
            busy={bulkLock.isPending}
            onClick={applyBulk}
          >
            Apply to {selectedUsers.length} selected
          </Button>
        </div>
        <PagedTable
          query={list}
          loading="Loading users…"
          failed="Failed to load users"
          empty="No users match these filters."
          label="Users"
          columns={columns}
          rows={users}
          rowTestId="user-row"
          onOpen={(user) => setViewing(user.id)}
          skip={skip}
          limit={PAGE_SIZE}
          onPage={(next) => {
            setSkip(next);
            setSelected(new Set());
          }}
        />
      </Panel>

      <UserDetailsDialog userId={viewing} onClose={() => setViewing(null)} />
      <AddUserDialog open={adding} onClose={() => setAdding(false)} onAdded={setViewing} />
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
