import * as v from 'valibot';

/** A setting that holds a comma-separated list (`a, b,c`): its entries, trimmed, the empty ones dropped. */
export const commaList = (defaultValue = '') =>
  v.pipe(
    v.optional(v.string(), defaultValue),
    v.transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  );
