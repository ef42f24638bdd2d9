import * as v from 'valibot';
import { ADMIN_PAGE_SIZE, ADMIN_MAX_PAGE_SIZE, ADMIN_MAX_SKIP, ADMIN_MESSAGES } from './constants';

/** Field helpers shared by the back-office query and body schemas. */

/** A query-string flag: `true`/`false` (also 1/0); absent means "not filtered". */
export const queryFlag = (name: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.picklist(['true', 'false', '1', '0'], `${name} must be true or false`),
      v.transform((value) => value === 'true' || value === '1'),
    ),
  );

/** A search box: trimmed, at most 200 characters; blank means no search. */
export const querySearch = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(200, 'search must be at most 200 characters'),
    v.transform((value) => value || undefined),
  ),
);

/** An ISO 8601 date or date-time (`2026-11-26` or `2026-11-26T10:00:00Z`); anything else is a 422. */
export const queryDate = (name: string, { endOfDay = false } = {}) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/,
        `${name} must be an ISO date such as 2026-11-26 or 2026-11-26T10:00:00Z`,
      ),
      // A bare end date means the whole of that day (UTC).
      v.transform((value) =>
        endOfDay && value.length === 10
          ? new Date(new Date(value).getTime() + 86_400_000 - 1)
          : new Date(value),
      ),
      v.check((value) => !Number.isNaN(value.getTime()), `${name} is not a valid date`),
    ),
  );

const wholeNumber = (name: string) =>
  v.pipe(v.string(), v.regex(/^\d{1,7}$/, `${name} must be a whole number`), v.transform(Number));

/** skip 0…1,000,000 and limit 1…100 (default 50, or 100 for audit logs). */
export const adminPaging = (defaultLimit: number = ADMIN_PAGE_SIZE) => ({
  skip: v.optional(
    v.pipe(wholeNumber('skip'), v.maxValue(ADMIN_MAX_SKIP, `skip must be at most ${ADMIN_MAX_SKIP}`)),
    '0',
  ),
  limit: v.optional(
    v.pipe(
      wholeNumber('limit'),
      v.minValue(1, 'limit must be at least 1'),
      v.maxValue(ADMIN_MAX_PAGE_SIZE, `limit must be at most ${ADMIN_MAX_PAGE_SIZE}`),
    ),
    String(defaultLimit),
  ),
});

/** start_date ≤ end_date when both are given (spec 02 §5: the range applies only when both are set). */
export const rangeInOrder = (input: { start_date?: Date; end_date?: Date }) =>
  !input.start_date || !input.end_date || input.start_date <= input.end_date;
export const RANGE_MESSAGE = 'start_date must not be after end_date';

const uuidParam = (message: string) => v.object({ id: v.pipe(v.string(), v.uuid(message)) });
export const uuidQuery = (name: string) => v.optional(v.pipe(v.string(), v.uuid(`${name} must be a UUID`)));

export const adminIdParams = {
  partner: uuidParam(ADMIN_MESSAGES.partnerNotFound),
  user: uuidParam(ADMIN_MESSAGES.userNotFound),
  verification: uuidParam(ADMIN_MESSAGES.verificationNotFound),
  token: v.object({
    id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{10,128}$/, ADMIN_MESSAGES.tokenNotFound)),
  }),
  authorization: v.object({
    id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{10,128}$/, ADMIN_MESSAGES.authorizationNotFound)),
  }),
};

export const adminMediaParams = v.object({
  id: v.pipe(v.string(), v.uuid(ADMIN_MESSAGES.verificationNotFound)),
  mediaId: v.pipe(v.string(), v.uuid('Media not found')),
});
