import { stripSearchParams } from '@tanstack/react-router';
import * as v from 'valibot';

/**
 * Route options of a page a mailed link opens (`?token=…`): the token, '' when the link lost it. The empty default
 * stays out of the address (issue 25 item 12: clean URLs, no empty `?token=`).
 */
export const tokenSearch = {
  validateSearch: v.object({ token: v.optional(v.fallback(v.string(), ''), '') }),
  search: { middlewares: [stripSearchParams<{ token: string }>({ token: '' })] },
};
