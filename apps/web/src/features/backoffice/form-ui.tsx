import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from '../../components/ui/button';

/** Pieces the back-office dialogs and filters share. */

/** A select option: its value and what it shows. */
export type Option<T extends string = string> = readonly [value: T, label: ReactNode];

/** Options of a list of values, each shown through `label`. */
export const optionsOf = <T extends string>(values: readonly T[], label: (value: T) => ReactNode) =>
  values.map((value): Option<T> => [value, label(value)]);

/** The <option> elements of a select. */
export function OptionList<T extends string>({ options }: { options: readonly Option<T>[] }) {
  return (
    <>
      {options.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </>
  );
}

/**
 * A dialog's Cancel and confirm buttons, Cancel first. The confirm button submits the form around it,
 * or runs `onConfirm` where there is no form.
 */
export function FormActions({
  label,
  busy,
  onCancel,
  onConfirm,
  variant = 'primary',
}: {
  label: ReactNode;
  busy: boolean;
  onCancel(): void;
  onConfirm?: () => void;
  variant?: ButtonVariant;
}) {
  return (
    <div className="flex justify-end gap-2">
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      {onConfirm ? (
        <Button variant={variant} busy={busy} onClick={onConfirm}>
          {label}
        </Button>
      ) : (
        <Button type="submit" variant={variant} busy={busy}>
          {label}
        </Button>
      )}
    </div>
  );
}
