import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  ADMIN_PARTNER_PLANS,
  BUSINESS_TYPES,
  PARTNER_STATUSES,
  adminCreatePartnerBody,
  type AdminCreatePartnerBody,
  type AdminPartner,
} from '@attestly/contracts';
import { adminApi, adminErrorMessage, adminKeys, adminPartnersQueryOptions } from '../../api/admin';
import { fieldProps } from '../../components/forms/field-props';
import { EmailField, NameField } from '../../components/forms/fields';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { FormError, SelectField, TextField } from '../../components/ui/field';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';
import { capitalize, formatDay } from './format';
import { FormActions, OptionList, optionsOf } from './form-ui';
import { FilterBar, PagedTable, SearchFilter, SelectFilter, type Column } from './list-ui';
import { FirstPasswordShownOnce } from './copy-and-done';
import { SignInChoice } from './sign-in-choice';
import { PageHeader, Panel, PlanBadge, StatusBadge } from './ui';

const PAGE_SIZE = 50;
export const statusLabel = (status: string) => capitalize(status.replace(/_/g, ' '));
export const planLabel = capitalize;

const COLUMNS: Column<AdminPartner>[] = [
  {
    header: 'Partner',
    cell: (partner) => (
      <Link
        to="/backoffice/partners/$partnerId"
        params={{ partnerId: partner.id }}
        className="font-semibold text-indigo-700 hover:text-indigo-900"
      >
        {partner.partner_name}
      </Link>
    ),
  },
  {
    header: 'Contact',
    cell: (partner) => (
      <>
        <p>{partner.contact_name ?? '—'}</p>
        <p className="text-xs text-slate-700">{partner.contact_email}</p>
      </>
    ),
  },
  { header: 'Status', cell: (partner) => <StatusBadge status={partner.status} /> },
  { header: 'Plan', cell: (partner) => <PlanBadge plan={partner.plan} /> },
  { header: 'Sites', cell: (partner) => partner.total_sites },
  { header: 'Verifications', cell: (partner) => partner.total_verifications },
  { header: 'Created', cell: (partner) => formatDay(partner.created_at) },
];

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
      <FilterBar columns={3}>
        <SearchFilter placeholder="Name or contact e-mail" value={search} onChange={filter(setSearch)} />
        <SelectFilter
          label="Status"
          all="All statuses"
          options={optionsOf(PARTNER_STATUSES, statusLabel)}
          value={status}
          onChange={filter(setStatus)}
        />
        <SelectFilter
          label="Plan"
          all="All plans"
          // The plans partners can be on (contracts PLANS); older names are only displayed, never filtered by.
          options={optionsOf(ADMIN_PARTNER_PLANS, planLabel)}
          value={plan}
          onChange={filter(setPlan)}
        />
      </FilterBar>
      <Panel>
        <PagedTable
          query={list}
          loading="Loading partners…"
          failed="Failed to load partners"
          // spec 01 §8's fallback for the partners call, under spec 02 §8's message.
          failedDetail="Failed to fetch partners"
          empty="No partners match these filters."
          label="Partners"
          columns={COLUMNS}
          rows={partners}
          rowTestId="partner-row"
          skip={skip}
          limit={PAGE_SIZE}
          onPage={setSkip}
        />
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

/**
 * spec 02 §5 "Create partner": name, contact e-mail and name, and website required; plan starter by default. The
 * operator also chooses how the partner signs in (issue 25 item 4): a first password shown here once, to copy and
 * hand over, or an invitation mail with a link to choose one.
 */
function CreatePartnerDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [created, setCreated] = useState<{ id: string; password: string } | null>(null);
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
      sign_in: 'show_password',
    },
  });
  const openPartner = async (id: string) => {
    setCreated(null);
    onClose();
    await navigate({ to: '/backoffice/partners/$partnerId', params: { partnerId: id } });
  };
  const create = useMutation({
    mutationFn: (body: AdminCreatePartnerBody) =>
      adminApi.createPartner({ ...body, skip_email_verification: true }),
    onSuccess: async (partner) => {
      form.reset();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
      if (partner.temporary_password) {
        toast.success('Partner created successfully');
        // Shown once: the answer is the only place it exists in clear.
        setCreated({ id: partner.id, password: partner.temporary_password });
        return;
      }
      toast.success(
        `Partner created; invitation sent to ${partner.invitation_sent_to ?? partner.contact_email}`,
      );
      await openPartner(partner.id);
    },
    onError: (error) => {
      applyServerErrors(error, form.setError, CREATE_FIELDS);
    },
  });
  const close = () => {
    if (created) void openPartner(created.id);
    else onClose();
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : close())} title="Create Partner">
      {created ? (
        <FirstPasswordShownOnce
          password={created.password}
          testId="temporary-password"
          signsIn="The partner signs in at /partner/login with the contact e-mail"
          onDone={close}
        />
      ) : (
        <form
          className="space-y-4"
          noValidate
          onSubmit={form.handleSubmit((values) => create.mutate(values))}
        >
          <FormError
            message={create.isError ? adminErrorMessage(create.error, 'Failed to create partner') : null}
          />
          <TextField label="Partner name" {...fieldProps(form, 'partner_name')} />
          <NameField label="Contact name" autoComplete="off" {...fieldProps(form, 'contact_name')} />
          <EmailField label="Contact email" autoComplete="off" {...fieldProps(form, 'contact_email')} />
          <TextField
            label="Website"
            type="url"
            placeholder="https://example.com"
            {...fieldProps(form, 'website')}
          />
          <TextField label="Phone (optional)" type="tel" {...fieldProps(form, 'phone')} />
          <SelectField label="Company type" {...fieldProps(form, 'company_type')}>
            <option value="">Not specified</option>
            <OptionList options={optionsOf(BUSINESS_TYPES, (type) => type)} />
          </SelectField>
          <SelectField label="Plan" {...fieldProps(form, 'plan')}>
            <OptionList options={optionsOf(ADMIN_PARTNER_PLANS, planLabel)} />
          </SelectField>
          <SignInChoice
            who="partner"
            mailedTo={' to the contact address'}
            registration={form.register('sign_in')}
          />
          <FormActions label="Create Partner" busy={create.isPending} onCancel={onClose} />
        </form>
      )}
    </Dialog>
  );
}
