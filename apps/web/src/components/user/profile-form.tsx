import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type * as v from 'valibot';
import { countryChoices, profileBody, type ProfileBody, type UserProfile } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { subdivisionsQueryOptions, userKeys, usersApi } from '../../api/users';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { fieldProps } from '../forms/field-props';
import { Button } from '../ui/button';
import { EmailField, NameField, PhoneField } from '../forms/fields';
import { Combobox } from '../ui/combobox';
import { TextField } from '../ui/field';

/** The form holds strings; blank optional fields become null in the schema's output, as the API expects. */
type ProfileValues = ProfileBody & { phone: string; country: string; state: string; city: string };

const valuesOf = (profile: UserProfile): ProfileValues => ({
  full_name: profile.full_name,
  email: profile.email,
  phone: profile.phone ?? '',
  country: profile.country ?? '',
  state: profile.state ?? '',
  city: profile.city ?? '',
});

/** spec 01 §2 "Profile settings": Save is enabled only when something changed. */
export function ProfileForm({ profile }: { profile: UserProfile }) {
  const queryClient = useQueryClient();
  const form = useForm<ProfileBody, unknown, v.InferOutput<typeof profileBody>>({
    resolver: valibotResolver(profileBody),
    values: valuesOf(profile),
  });
  const { errors, isDirty } = form.formState;
  const countries = useMemo(
    () => countryChoices().map((country) => ({ value: country.code, label: country.name })),
    [],
  );
  // Where the location data knows a country's states, they are offered (the names the location check compares).
  const country = form.watch('country') ?? '';
  const subdivisions = useQuery(subdivisionsQueryOptions(country));
  const states = useMemo(
    () => (subdivisions.data ?? []).map((name) => ({ value: name, label: name })),
    [subdivisions.data],
  );
  // /profile#country (linked from the location check) puts the cursor where the missing country goes.
  useEffect(() => {
    if (window.location.hash === '#country') document.getElementById('country')?.focus();
  }, []);
  const save = useMutation({
    mutationFn: (body: ProfileBody) => usersApi.updateProfile(body),
    onSuccess: ({ pending_email: pendingEmail, ...updated }) => {
      queryClient.setQueryData(userKeys.profile(), updated);
      form.reset(valuesOf(updated));
      toast.success('Profile updated successfully!');
      // A new address applies once its owner opens the link mailed to it; until then the old one stays.
      if (pendingEmail)
        toast.info(`We sent a confirmation link to ${pendingEmail}. Your address changes when you open it.`);
    },
    onError: (error) => {
      applyServerErrors(error, form.setError, ['full_name', 'email', 'phone', 'country', 'state', 'city']);
      toast.error(errorMessage(error, 'Failed to update profile'));
    },
  });

  return (
    <form className="space-y-4" noValidate onSubmit={form.handleSubmit((body) => save.mutate(body))}>
      <div className="grid gap-4 sm:grid-cols-2">
        <NameField {...fieldProps(form, 'full_name')} />
        <EmailField {...fieldProps(form, 'email')} />
        <PhoneField {...fieldProps(form, 'phone')} />
        <Controller
          control={form.control}
          name="country"
          render={({ field }) => (
            <Combobox
              id="country"
              label="Country"
              placeholder="Type to search countries"
              options={countries}
              value={field.value ?? ''}
              onChange={(code) => {
                if (code !== field.value) form.setValue('state', '', { shouldDirty: true });
                field.onChange(code);
              }}
              onBlur={field.onBlur}
              error={errors.country?.message}
            />
          )}
        />
        {states.length > 0 ? (
          <Controller
            control={form.control}
            name="state"
            render={({ field }) => (
              <Combobox
                id="state"
                label="State / region"
                placeholder="Type to search"
                options={states}
                freeText
                value={field.value ?? ''}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={errors.state?.message}
              />
            )}
          />
        ) : (
          <TextField
            id="state"
            label="State / region"
            autoComplete="address-level1"
            {...fieldProps(form, 'state')}
          />
        )}
        <TextField label="City" autoComplete="address-level2" {...fieldProps(form, 'city')} />
      </div>
      <p className="text-xs text-slate-700">
        Changing your email or phone means verifying the new one again.
      </p>
      <div className="flex gap-2">
        <Button type="submit" disabled={!isDirty} busy={save.isPending}>
          Save changes
        </Button>
        <Button
          variant="secondary"
          disabled={!isDirty || save.isPending}
          onClick={() => form.reset(valuesOf(profile))}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}
