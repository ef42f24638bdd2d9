import { useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';

/**
 * A form's submit whose failure is shown once, above the form (FormError): cleared on each try, then set to what
 * `failed` makes of the thrown error. `failed` may also announce it elsewhere (a toast) or reset the form.
 * `setFailure` is for failures found without a throw.
 */
export function useSubmitFailure<T extends FieldValues, Submitted>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- react-hook-form's own default for the context type
  form: UseFormReturn<T, any, Submitted>,
  submit: (values: Submitted) => Promise<void>,
  failed: (error: unknown) => string,
) {
  const [failure, setFailure] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await submit(values);
    } catch (error) {
      setFailure(failed(error));
    }
  });
  return { failure, setFailure, onSubmit };
}
