import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import * as v from 'valibot';
import {
  adminEditUserBody,
  adminLockUserBody,
  type AdminEditUserBody,
  type AdminUser,
} from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys, adminUserQueryOptions } from '../../api/admin';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { FormError, TextField } from '../../components/ui/field';
import { QueryState } from '../../components/ui/query-state';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { formatDateTime } from './format';
import { TextAreaField } from './textarea-field';
import { Badge, Facts, StatusBadge, TableFrame, td, th } from './ui';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
const orDash = (value: string | null | undefined) => value || '—';

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
            <section className="space-y-2">
              <h3 className="font-semibold text-slate-900">Basic information</h3>
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
            </section>
            <section className="space-y-2">
              <h3 className="font-semibold text-slate-900">Verification</h3>
              <Facts
                items={[
                  ['Account verified', yesNo(user.is_verified)],
                  ['Age verified', yesNo(user.age_verified)],
                  ['Location verified', yesNo(user.location_verified)],
                  ['Identity verified', yesNo(user.identity_verified)],
                ]}
              />
            </section>
            <section className="space-y-2">
              <h3 className="font-semibold text-slate-900">Account status</h3>
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
            </section>
            <section className="space-y-2">
              <h3 className="font-semibold text-slate-900">Timeline</h3>
              <Facts
                items={[
                  ['Created', formatDateTime(user.created_at)],
                  ['Updated', formatDateTime(user.updated_at)],
                  ['Last login', formatDateTime(user.last_login)],
                ]}
              />
            </section>
            <section className="space-y-2">
              <h3 className="font-semibold text-slate-900">Recent verification history</h3>
              {user.verification_history.length === 0 ? (
                <p className="text-sm text-slate-700">No verifications yet.</p>
              ) : (
                <TableFrame label="Recent verification history">
                  <thead>
                    <tr>
                      <th scope="col" className={th}>
                        Type
                      </th>
                      <th scope="col" className={th}>
                        Method
                      </th>
                      <th scope="col" className={th}>
                        Status
                      </th>
                      <th scope="col" className={th}>
                        Date
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {user.verification_history.map((item) => (
                      <tr key={item.id}>
                        <td className={td}>{item.type}</td>
                        <td className={td}>{item.method.replace(/_/g, ' ')}</td>
                        <td className={td}>
                          <StatusBadge status={item.status} />
                        </td>
                        <td className={td}>{formatDateTime(item.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </TableFrame>
              )}
            </section>
            <section className="space-y-2">
              <h3 className="font-semibold text-slate-900">Active OAuth authorizations</h3>
              {user.oauth_authorizations.length === 0 ? (
                <p className="text-sm text-slate-700">No active authorizations.</p>
              ) : (
                <TableFrame label="Active OAuth authorizations">
                  <thead>
                    <tr>
                      <th scope="col" className={th}>
                        Partner
                      </th>
                      <th scope="col" className={th}>
                        Site
                      </th>
                      <th scope="col" className={th}>
                        Scopes
                      </th>
                      <th scope="col" className={th}>
                        Created
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {user.oauth_authorizations.map((item) => (
                      <tr key={item.id}>
                        <td className={td}>{item.partner_name}</td>
                        <td className={td}>{item.site_name}</td>
                        <td className={td}>
                          <div className="flex flex-wrap gap-1">
                            {item.scopes.map((scope) => (
                              <Badge key={scope}>{scope}</Badge>
                            ))}
                          </div>
                        </td>
                        <td className={td}>{formatDateTime(item.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </TableFrame>
              )}
            </section>
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
      <TextField
        label="Full name"
        autoComplete="off"
        error={errors.full_name?.message}
        {...form.register('full_name')}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="off"
        error={errors.email?.message}
        {...form.register('email')}
      />
      <TextField
        label="Phone"
        type="tel"
        autoComplete="off"
        error={errors.phone?.message}
        {...form.register('phone')}
      />
      <TextField
        label="Country"
        placeholder="US, CA, GB"
        error={errors.country?.message}
        {...form.register('country')}
      />
      <TextField label="State" error={errors.state?.message} {...form.register('state')} />
      <TextField label="City" error={errors.city?.message} {...form.register('city')} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" busy={save.isPending}>
          Save changes
        </Button>
      </div>
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
  const { errors } = form.formState;
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
        <TextAreaField
          label="Reason (optional)"
          error={errors.reason?.message}
          {...form.register('reason')}
        />
        <TextField
          label="Duration in hours (optional)"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          hint="Leave empty to lock until an administrator unlocks the account."
          error={errors.duration_hours?.message}
          {...form.register('duration_hours')}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" busy={lock.isPending}>
            Lock user
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
