import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import * as v from 'valibot';
import {
  adminEditUserBody,
  adminLockUserBody,
  type AdminEditUserBody,
  type AdminUser,
  type AdminUserDetail,
} from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys, adminUserQueryOptions } from '../../api/admin';
import { fieldProps } from '../../components/forms/field-props';
import { EmailField, NameField, PhoneField } from '../../components/forms/fields';
import { Dialog } from '../../components/ui/dialog';
import { FormError, TextField } from '../../components/ui/field';
import { QueryState } from '../../components/ui/query-state';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { formatDateTime } from './format';
import { TextAreaField } from './textarea-field';
import { FormActions } from './form-ui';
import { DataTable, type Column } from './list-ui';
import { Badge, Facts, StatusBadge } from './ui';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
const orDash = (value: string | null | undefined) => value || '—';

const HISTORY_COLUMNS: Column<AdminUserDetail['verification_history'][number]>[] = [
  { header: 'Type', cell: (item) => item.type },
  { header: 'Method', cell: (item) => item.method.replace(/_/g, ' ') },
  { header: 'Status', cell: (item) => <StatusBadge status={item.status} /> },
  { header: 'Date', cell: (item) => formatDateTime(item.created_at) },
];

const AUTHORIZATION_COLUMNS: Column<AdminUserDetail['oauth_authorizations'][number]>[] = [
  { header: 'Partner', cell: (item) => item.partner_name },
  { header: 'Site', cell: (item) => item.site_name },
  {
    header: 'Scopes',
    cell: (item) => (
      <div className="flex flex-wrap gap-1">
        {item.scopes.map((scope) => (
          <Badge key={scope}>{scope}</Badge>
        ))}
      </div>
    ),
  },
  { header: 'Created', cell: (item) => formatDateTime(item.created_at) },
];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      {children}
    </section>
  );
}

/** A titled table of the user's records (the table is named by the title), or `empty` when there are none. */
function TableSection<Row extends { id: string }>({
  title,
  columns,
  rows,
  empty,
}: {
  title: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  empty: string;
}) {
  return (
    <Section title={title}>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-700">{empty}</p>
      ) : (
        <DataTable label={title} columns={columns} rows={rows} shadedHead={false} />
      )}
    </Section>
  );
}

/** spec 02 §2 "User details modal". */
export function UserDetailsDialog({ userId, onClose }: { userId: string | null; onClose(): void }) {
  const detail = useQuery({ ...adminUserQueryOptions(userId ?? ''), enabled: userId !== null });
  return (
    <Dialog
      open={userId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="User details"
      size="xl"
    >
      <QueryState query={detail} loadingLabel="Loading user…" errorFallback="Failed to load user details">
        {(user) => (
          <div className="space-y-6">
            <Section title="Basic information">
              <Facts
                items={[
                  ['Full name', orDash(user.full_name)],
                  ['Email', user.email],
                  ['Username', orDash(user.username)],
                  ['Phone', orDash(user.phone)],
                  ['Country', orDash(user.country)],
                  ['State', orDash(user.state)],
                  ['City', orDash(user.city)],
                ]}
              />
            </Section>
            <Section title="Verification">
              <Facts
                items={[
                  ['Account verified', yesNo(user.is_verified)],
                  ['Age verified', yesNo(user.age_verified)],
                  ['Location verified', yesNo(user.location_verified)],
                  ['Identity verified', yesNo(user.identity_verified)],
                ]}
              />
            </Section>
            <Section title="Account status">
              <Facts
                items={[
                  [
                    'Flagged',
                    user.flag ? `Yes: ${user.flag.reason} (${user.flag.priority})` : yesNo(user.is_flagged),
                  ],
                  ['Login attempts', String(user.login_attempts)],
                  ['Locked until', formatDateTime(user.locked_until, 'Not locked')],
                ]}
              />
            </Section>
            <Section title="Timeline">
              <Facts
                items={[
                  ['Created', formatDateTime(user.created_at)],
                  ['Updated', formatDateTime(user.updated_at)],
                  ['Last login', formatDateTime(user.last_login)],
                ]}
              />
            </Section>
            <TableSection
              title="Recent verification history"
              columns={HISTORY_COLUMNS}
              rows={user.verification_history}
              empty="No verifications yet."
            />
            <TableSection
              title="Active OAuth authorizations"
              columns={AUTHORIZATION_COLUMNS}
              rows={user.oauth_authorizations}
              empty="No active authorizations."
            />
          </div>
        )}
      </QueryState>
    </Dialog>
  );
}

type EditValues = {
  full_name: string;
  email: string;
  phone: string;
  country: string;
  state: string;
  city: string;
};

/** Edit user (made real, issue 9): only the changed fields are sent; a new e-mail must be confirmed again. */
export function EditUserDialog({ user, onClose }: { user: AdminUser | null; onClose(): void }) {
  return (
    <Dialog open={user !== null} onOpenChange={(open) => (open ? undefined : onClose())} title="Edit user">
      {user ? <EditUserForm key={user.id} user={user} onClose={onClose} /> : null}
    </Dialog>
  );
}

const EDIT_FIELDS = ['full_name', 'email', 'phone', 'country', 'state', 'city'] as const;

function EditUserForm({ user, onClose }: { user: AdminUser; onClose(): void }) {
  const queryClient = useQueryClient();
  const form = useForm<EditValues>({
    defaultValues: {
      full_name: user.full_name ?? '',
      email: user.email,
      phone: user.phone ?? '',
      country: user.country ?? '',
      state: user.state ?? '',
      city: user.city ?? '',
    },
  });
  const { errors, dirtyFields } = form.formState;
  const save = useMutation({
    mutationFn: (body: AdminEditUserBody) => adminApi.editUser(user.id, body),
    onSuccess: async () => {
      toast.success('User updated successfully');
      onClose();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error) => {
      applyServerErrors(error, form.setError, EDIT_FIELDS);
    },
  });
  const onSubmit = form.handleSubmit((values) => {
    const changed = Object.fromEntries(
      EDIT_FIELDS.filter((field) => dirtyFields[field]).map((f) => [f, values[f]]),
    );
    const parsed = v.safeParse(adminEditUserBody, changed);
    if (!parsed.success) {
      let placed = false;
      for (const issue of parsed.issues) {
        const field = issue.path?.[0]?.key as (typeof EDIT_FIELDS)[number] | undefined;
        if (field && EDIT_FIELDS.includes(field)) {
          form.setError(field, { type: 'validate', message: issue.message });
          placed = true;
        }
      }
      if (!placed) form.setError('root', { type: 'validate', message: parsed.issues[0].message });
      return;
    }
    save.mutate(changed as AdminEditUserBody);
  });
  return (
    <form className="space-y-4" noValidate onSubmit={onSubmit}>
      <FormError
        message={
          errors.root?.message ??
          (save.isError ? adminErrorMessage(save.error, 'Failed to update user') : null)
        }
      />
      <NameField autoComplete="off" {...fieldProps(form, 'full_name')} />
      <EmailField autoComplete="off" {...fieldProps(form, 'email')} />
      <PhoneField autoComplete="off" {...fieldProps(form, 'phone')} />
      <TextField label="Country" placeholder="US, CA, GB" {...fieldProps(form, 'country')} />
      <TextField label="State" {...fieldProps(form, 'state')} />
      <TextField label="City" {...fieldProps(form, 'city')} />
      <FormActions label="Save changes" busy={save.isPending} onCancel={onClose} />
    </form>
  );
}

const lockForm = v.object({
  reason: adminLockUserBody.entries.reason,
  duration_hours: v.pipe(
    v.string(),
    v.transform((value): number | undefined => (value.trim() === '' ? undefined : Number(value))),
    adminLockUserBody.entries.duration_hours,
  ),
});

/** Lock (the spec's "Suspend", made real): ends every session of the user; for some hours or until unlocked. */
export function LockUserDialog({ user, onClose }: { user: AdminUser | null; onClose(): void }) {
  const queryClient = useQueryClient();
  const form = useForm<v.InferInput<typeof lockForm>, unknown, v.InferOutput<typeof lockForm>>({
    resolver: valibotResolver(lockForm),
    defaultValues: { reason: '', duration_hours: '' },
  });
  const lock = useMutation({
    mutationFn: (body: v.InferOutput<typeof lockForm>) =>
      adminApi.lockUser((user as AdminUser).id, {
        reason: body.reason,
        ...(body.duration_hours === undefined ? {} : { duration_hours: body.duration_hours }),
      }),
    onSuccess: async () => {
      toast.success('User locked successfully');
      form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
  return (
    <Dialog
      open={user !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Lock user"
      description={
        user ? `${user.email} is signed out everywhere and cannot sign in while locked.` : undefined
      }
    >
      <form className="space-y-4" noValidate onSubmit={form.handleSubmit((values) => lock.mutate(values))}>
        <FormError message={lock.isError ? adminErrorMessage(lock.error, 'Failed to lock user') : null} />
        <TextAreaField label="Reason (optional)" {...fieldProps(form, 'reason')} />
        <TextField
          label="Duration in hours (optional)"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          hint="Leave empty to lock until an administrator unlocks the account."
          {...fieldProps(form, 'duration_hours')}
        />
        <FormActions label="Lock user" variant="danger" busy={lock.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
