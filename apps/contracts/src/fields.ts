import * as v from 'valibot';

/** A required, trimmed string; a missing value and a value of the wrong type get different messages. */
export function requiredText(message: string, max = 200) {
  return v.pipe(
    v.string((issue) =>
      issue.received === 'undefined' || issue.received === 'null' ? message : 'Must be text',
    ),
    v.trim(),
    v.nonEmpty(message),
    v.maxLength(max, `Must be at most ${max} characters`),
  );
}

/** An optional string: absent, null or blank all mean "not provided" and become null. */
export function optionalText(max = 200) {
  return v.pipe(
    v.optional(v.nullable(v.string('Must be text'))),
    v.transform((value) => {
      const trimmed = value?.trim();
      return trimmed ? trimmed : null;
    }),
    v.nullable(v.pipe(v.string(), v.maxLength(max, `Must be at most ${max} characters`))),
  );
}

export const email = v.pipe(
  requiredText('Email is required', 254),
  v.email('Invalid email'),
  v.transform((value) => value.toLowerCase()),
);

/** Passwords are never trimmed: every character the user typed counts. */
export const currentPassword = (message = 'Password is required') =>
  v.pipe(
    v.string((issue) =>
      issue.received === 'undefined' || issue.received === 'null' ? message : 'Must be text',
    ),
    v.nonEmpty(message),
    v.maxLength(256, 'Must be at most 256 characters'),
  );

export const newPassword = (message = 'Password is required') =>
  v.pipe(currentPassword(message), v.minLength(8, 'Password must be at least 8 characters'));

export const PHONE_PATTERN = /^\+?[0-9][0-9 ()-]{5,18}[0-9]$/;

export const optionalPhone = v.pipe(
  optionalText(32),
  v.check((value) => value === null || PHONE_PATTERN.test(value), 'Invalid phone number'),
);

export const paging = v.object({
  skip: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, 'skip must be a whole number'), v.transform(Number)),
    '0',
  ),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'limit must be a whole number'),
      v.transform(Number),
      v.minValue(1, 'limit must be at least 1'),
      v.maxValue(500, 'limit must be at most 500'),
    ),
    '100',
  ),
});
