import * as v from 'valibot';

/**
 * NUL and the other C0/C1 control characters (tab, line feed and carriage return excepted) never belong in text we
 * store: PostgreSQL refuses NUL in text columns while SQLite keeps it, so both databases must see it refused here.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const noControlCharacters = v.check(
  (value: string) => !CONTROL_CHARACTERS.test(value),
  'Must not contain control characters',
);

/** A required, trimmed string; a missing value and a value of the wrong type get different messages. */
export function requiredText(message: string, max = 200) {
  return v.pipe(
    v.string((issue) =>
      issue.received === 'undefined' || issue.received === 'null' ? message : 'Must be text',
    ),
    v.trim(),
    v.nonEmpty(message),
    v.maxLength(max, `Must be at most ${max} characters`),
    noControlCharacters,
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
    v.nullable(
      v.pipe(v.string(), v.maxLength(max, `Must be at most ${max} characters`), noControlCharacters),
    ),
  );
}

/**
 * A person's name as it appears in mail and on screens: letters and marks of any script, spaces, apostrophes,
 * hyphens and dots — no line breaks, control characters, digits-only strings, `@`, `/` or `:` (so a name can never
 * carry a header, a link or an address into a mail sent to an unverified recipient).
 */
export const PERSON_NAME_PATTERN = /^[\p{L}\p{M}][\p{L}\p{M} .'’-]*$/u;

export function personName(message: string, max = 120) {
  return v.pipe(
    requiredText(message, max),
    // An empty name already has its "required" message; one message per problem.
    v.check(
      (value) => value === '' || PERSON_NAME_PATTERN.test(value),
      'Use letters, spaces, apostrophes, hyphens and dots only',
    ),
  );
}

export function optionalPersonName(max = 120) {
  return v.pipe(
    optionalText(max),
    v.check(
      (value) => value === null || PERSON_NAME_PATTERN.test(value),
      'Use letters, spaces, apostrophes, hyphens and dots only',
    ),
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

/** The browser-only field that repeats a new password (sign-up, reset, change); it is never sent. */
export const passwordConfirmation = v.pipe(
  v.string('Please confirm your password'),
  v.nonEmpty('Please confirm your password'),
);

/**
 * The 'Passwords must match' rule of every form with a `confirmPassword` field (spec 01 §5): it must repeat
 * `field`, and the message is shown under the confirmation.
 */
export function passwordsMatch<
  F extends 'password' | 'new_password',
  TInput extends Record<F | 'confirmPassword', string>,
>(field: F): v.BaseValidation<TInput, TInput, v.PartialCheckIssue<Record<F | 'confirmPassword', string>>> {
  const matches = v.forward(
    v.partialCheck(
      [[field as string], ['confirmPassword']],
      (input: Record<string, string>) => input[field] === input.confirmPassword,
      'Passwords must match',
    ),
    ['confirmPassword'],
  );
  // valibot cannot type a check over a key chosen by the caller; the input the form gives it is TInput.
  return matches as unknown as v.BaseValidation<
    TInput,
    TInput,
    v.PartialCheckIssue<Record<F | 'confirmPassword', string>>
  >;
}

export const PHONE_PATTERN = /^\+?[0-9][0-9 ()-]{5,18}[0-9]$/;

export const optionalPhone = v.pipe(
  optionalText(32),
  v.check((value) => value === null || PHONE_PATTERN.test(value), 'Invalid phone number'),
);

/** The largest `skip` any list accepts: far beyond any real page, far below what a database integer can hold. */
export const MAX_SKIP = 1_000_000;

export const paging = v.object({
  skip: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,16}$/, 'skip must be a whole number'),
      v.transform(Number),
      v.maxValue(MAX_SKIP, `skip must be at most ${MAX_SKIP}`),
    ),
    '0',
  ),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,16}$/, 'limit must be a whole number'),
      v.transform(Number),
      v.minValue(1, 'limit must be at least 1'),
      v.maxValue(500, 'limit must be at most 500'),
    ),
    '100',
  ),
});
