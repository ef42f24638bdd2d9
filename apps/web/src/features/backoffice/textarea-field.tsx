import { forwardRef, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { FieldShell, inputClass, useFieldIds } from '../../components/ui/field';

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

/** A labelled textarea with its error tied to it, in the shared TextField's frame and style. */
export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(function TextAreaField(
  { label, error, hint, id, rows = 3, ...rest },
  ref,
) {
  const { fieldId, describedBy } = useFieldIds(id, error, hint);
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint}>
      <textarea
        ref={ref}
        id={fieldId}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={inputClass(!!error)}
        {...rest}
      />
    </FieldShell>
  );
});
