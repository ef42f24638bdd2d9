import { get, type FieldError, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';

type BoundForm<T extends FieldValues> = Pick<UseFormReturn<T>, 'register' | 'formState'>;

/**
 * The props that tie a TextField (or SelectField, TextAreaField…) to a react-hook-form entry: its registration and
 * the entry's error message. The name is written once, so a field cannot show another field's error. Reading
 * `formState.errors` subscribes the form to its errors (react-hook-form's formState is a proxy), as before.
 */
export function fieldProps<T extends FieldValues>(form: BoundForm<T>, name: Path<T>) {
  const error: FieldError | undefined = get(form.formState.errors, name);
  return { ...form.register(name), error: error?.message };
}
