/** The error envelope of DESIGN.md §3. `detail` is what a screen shows. */
export interface FieldError {
  path: string;
  message: string;
}

export interface ErrorEnvelope {
  detail: string;
  code: string;
  errors?: FieldError[];
  request_id?: string;
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { detail?: unknown }).detail === 'string' &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}
