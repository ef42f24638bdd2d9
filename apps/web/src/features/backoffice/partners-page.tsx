import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  ADMIN_DISPLAY_PLANS,
  ADMIN_PARTNER_PLANS,
  BUSINESS_TYPES,
  PARTNER_STATUSES,
  adminCreatePartnerBody,
  type AdminCreatePartnerBody,
} from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys, adminPartnersQueryOptions } from '../../api/admin';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { FormError, SelectField, TextField } from '../../components/ui/field';
import { ErrorState, LoadingState } from '../../components/ui/query-state';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';
import { formatDay } from './format';
import { PageHeader, Pager, Panel, PlanBadge, StatusBadge, TableFrame, td, th } from './ui';

const PAGE_SIZE = 50;
export const statusLabel = (status: string) =>
  status.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
export const planLabel = (plan: string) => plan.replace(/^./, (c) => c.toUpperCase());

/** spec 02 §2 "Partner list": paged 50 at a time, search/status/plan filters and the create-partner form. */
export function PartnersPage() {
  useDocumentTitle('Partners');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [plan, setPlan] = useState('');
  const [skip, setSkip] = useState(0);
  const [creating, setCreating] = useState(false);
  const list = useQuery(
    adminPartnersQueryOptions({
      skip,
      limit: PAGE_SIZE,
      search: search.trim() || undefined,
      status: status || undefined,
      plan: plan || undefined,
    }),
  );
  const partners = list.data?.partners ?? [];
  const filter = (set: (value: string) => void) => (value: string) => {
    set(value);
    setSkip(0);
  };

  return (
    <div className="space-y-6">
      <PageHeader title="Partners">
        <Button onClick={() => setCreating(true)}>Create Partner</Button>
      </PageHeader>
      <Panel>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <TextField
            label="Search"
            type="search"
            placeholder="Name or contact e-mail"
            value={search}
            onChange={(event) => filter(setSearch)(event.target.value)}
          />
          <SelectField
            label="Status"
            value={status}
            onChange={(event) => filter(setStatus)(event.target.value)}
          >
            <option value="">All statuses</option>
            {PARTNER_STATUSES.map((value) => (
              <option key={value} value={value}>
                {statusLabel(value)}
              </option>
            ))}
          </SelectField>
          <SelectField label="Plan" value={plan} onChange={(event) => filter(setPlan)(event.target.value)}>
            <option value="">All plans</option>
            {ADMIN_DISPLAY_PLANS.map((value) => (
              <option key={value} value={value}>
                {planLabel(value)}
              </option>
            ))}
          </SelectField>
        </div>
      </Panel>
      <Panel>
        {list.isPending ? (
          <LoadingState label="Loading partners…" />
        ) : list.isError ? (
          <ErrorState
            error={list.error}
            fallback="Failed to load partners"
            onRetry={() => void list.refetch()}
          />
        ) : partners.length === 0 ? (
          <p className="text-sm text-slate-700">No partners match these filters.</p>
        ) : (
          <>
            <TableFrame label="Partners">
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className={th}>
                    Partner
                  </th>
                  <th scope="col" className={th}>
                    Contact
                  </th>
                  <th scope="col" className={th}>
                    Status
                  </th>
                  <th scope="col" className={th}>
                    Plan
                  </th>
                  <th scope="col" className={th}>
                    Sites
                  </th>
                  <th scope="col" className={th}>
                    Verifications
                  </th>
                  <th scope="col" className={th}>
                    Created
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {partners.map((partner) => (
                  <tr key={partner.id} data-testid="partner-row">
                    <td className={td}>
                      <Link
                        to="/backoffice/partners/$partnerId"
                        params={{ partnerId: partner.id }}
                        className="font-semibold text-indigo-700 hover:text-indigo-900"
                      >
                        {partner.partner_name}
                      </Link>
                    </td>
                    <td className={td}>
                      <p>{partner.contact_name ?? '—'}</p>
                      <p className="text-xs text-slate-700">{partner.contact_email}</p>
                    </td>
                    <td className={td}>
                      <StatusBadge status={partner.status} />
                    </td>
                    <td className={td}>
                      <PlanBadge plan={partner.plan} />
                    </td>
                    <td className={td}>{partner.total_sites}</td>
                    <td className={td}>{partner.total_verifications}</td>
                    <td className={td}>{formatDay(partner.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </TableFrame>
            <Pager skip={skip} limit={PAGE_SIZE} total={list.data?.total_count ?? 0} onChange={setSkip} />
          </>
        )}
      </Panel>
      <CreatePartnerDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}

const CREATE_FIELDS = [
  'partner_name',
  'contact_email',
  'contact_name',
  'website',
  'phone',
  'company_type',
  'plan',
] as const;

/** spec 02 §5 "Create partner": name, contact e-mail and name, and website required; plan starter by default. */
function CreatePartnerDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm<AdminCreatePartnerBody>({
    resolver: valibotResolver(adminCreatePartnerBody),
    defaultValues: {
      partner_name: '',
      contact_email: '',
      contact_name: '',
      website: '',
      phone: '',
      company_type: '',
      plan: 'starter',
      skip_email_verification: true,
    },
  });
  const { errors } = form.formState;
  const create = useMutation({
    mutationFn: (body: AdminCreatePartnerBody) =>
      adminApi.createPartner({ ...body, skip_email_verification: true }),
    onSuccess: async (partner) => {
      toast.success('Partner created successfully');
      form.reset();
      onClose();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
      await navigate({ to: '/backoffice/partners/$partnerId', params: { partnerId: partner.id } });
    },
    onError: (error) => {
      applyServerErrors(error, form.setError, CREATE_FIELDS);
    },
  });
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())} title="Create Partner">
      <form className="space-y-4" noValidate onSubmit={form.handleSubmit((values) => create.mutate(values))}>
        <FormError
          message={create.isError ? adminErrorMessage(create.error, 'Failed to create partner') : null}
        />
        <TextField
          label="Partner name"
          error={errors.partner_name?.message}
          {...form.register('partner_name')}
        />
        <TextField
          label="Contact name"
          autoComplete="off"
          error={errors.contact_name?.message}
          {...form.register('contact_name')}
        />
        <TextField
          label="Contact email"
          type="email"
          autoComplete="off"
          error={errors.contact_email?.message}
          {...form.register('contact_email')}
        />
        <TextField
          label="Website"
          type="url"
          placeholder="https://example.com"
          error={errors.website?.message}
          {...form.register('website')}
        />
        <TextField
          label="Phone (optional)"
          type="tel"
          error={errors.phone?.message}
          {...form.register('phone')}
        />
        <SelectField
          label="Company type"
          error={errors.company_type?.message}
          {...form.register('company_type')}
        >
          <option value="">Not specified</option>
          {BUSINESS_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectField>
        <SelectField label="Plan" error={errors.plan?.message} {...form.register('plan')}>
          {ADMIN_PARTNER_PLANS.map((value) => (
            <option key={value} value={value}>
              {planLabel(value)}
            </option>
          ))}
        </SelectField>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={create.isPending}>
            Create Partner
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
