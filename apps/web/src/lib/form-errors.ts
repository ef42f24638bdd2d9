import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../api/client';

/**
 * Puts the server's field errors (422 `errors[]`) on the matching form fields. Returns true when at least one
 * landed, so the caller can skip a toast that would repeat them.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): boolean {
  if (!(error instanceof ApiError)) return false;
  let applied = false;
  for (const item of error.errors) {
    const field = fields.find((name) => name === item.path);
    if (field) {
      setError(field, { type: 'server', message: item.message });
      applied = true;
    }
  }
  return applied;
}
