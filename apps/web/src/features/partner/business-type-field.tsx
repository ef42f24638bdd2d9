import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { BUSINESS_TYPES } from '@attestly/contracts';
import { SelectField } from '../../components/ui/field';

type Props = Omit<ComponentPropsWithoutRef<typeof SelectField>, 'label' | 'children'>;

/** The partner's optional business type, on registration and on the profile: one of the contract's types, or none. */
export const BusinessTypeField = forwardRef<HTMLSelectElement, Props>(function BusinessTypeField(props, ref) {
  return (
    <SelectField ref={ref} label="Business type (optional)" {...props}>
      <option value="">Choose…</option>
      {BUSINESS_TYPES.map((type) => (
        <option key={type} value={type}>
          {type}
        </option>
      ))}
    </SelectField>
  );
});
