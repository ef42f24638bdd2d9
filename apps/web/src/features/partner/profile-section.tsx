import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { partnerProfileBody, type PartnerProfile } from '@attestly/contracts';
import { ApiError, errorMessage } from '../../api/client';
import { partnerApi, partnerKeys, partnerProfileQueryOptions } from '../../api/partner';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { FormError, TextField } from '../../components/ui/field';
import { toast } from '../../lib/toast';
import { BusinessTypeField } from './business-type-field';

type Draft = Record<'company_name' | 'contact_name' | 'phone' | 'website' | 'business_type', string>;

const draftOf = (partner: PartnerProfile): Draft => ({
  company_name: partner.company_name,
  contact_name: partner.contact_name ?? '',
  phone: partner.phone ?? '',
  website: partner.website ?? '',
  business_type: partner.business_type ?? '',
});

/** Editing the partner's company profile (PUT /partners/profile), from the management page's summary card. */
export function EditProfileButton() {
  const profile = useQuery(partnerProfileQueryOptions());
  const [open, setOpen] = useState(false);
  if (!profile.data) return null;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Edit profile
      </Button>
      {open ? <ProfileDialog partner={profile.data} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ProfileDialog({ partner, onClose }: { partner: PartnerProfile; onClose(): void }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(partner));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: partnerApi.updateProfile,
    onSuccess: (updated) => {
      queryClient.setQueryData(partnerKeys.profile(), updated);
      toast.success('Profile updated successfully!');
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        setErrors(Object.fromEntries(error.errors.map((item) => [item.path, item.message])));
      }
      const message = errorMessage(error, 'Failed to update profile');
      setFailure(message);
      toast.error(message);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = v.safeParse(partnerProfileBody, draft);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(
          parsed.issues.map((issue) => [String(issue.path?.[0]?.key ?? 'form'), issue.message]),
        ),
      );
      return;
    }
    setErrors({});
    save.mutate(draft);
  };
  const field = (name: keyof Draft) => ({
    value: draft[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title="Company profile">
      <form className="space-y-4" noValidate onSubmit={submit}>
        <FormError message={failure} />
        <TextField label="Company name" {...field('company_name')} />
        <TextField label="Contact name (optional)" {...field('contact_name')} />
        <TextField label="Phone (optional)" type="tel" {...field('phone')} />
        <TextField
          label="Website (optional)"
          inputMode="url"
          autoComplete="url"
          placeholder="shop.example.com"
          {...field('website')}
        />
        <BusinessTypeField {...field('business_type')} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={save.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
