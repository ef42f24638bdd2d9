import type { FieldError } from '@attestly/contracts';

/** An expected failure with its HTTP status, a stable `area.reason` code and the message a screen shows. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export function assert(
  condition: unknown,
  status: number,
  code: string,
  detail: string,
  errors?: FieldError[],
): asserts condition {
  if (!condition) throw new AppError(status, code, detail, errors);
}

export const unauthorized = (detail = 'Authentication required') =>
  new AppError(401, 'auth.unauthenticated', detail);
export const notFound = (detail = 'Not found') => new AppError(404, 'not_found', detail);
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new AppError(429, 'rate_limited', detail, undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
