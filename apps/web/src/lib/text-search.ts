import { stripSearchParams, type SearchMiddleware } from '@tanstack/react-router';
import * as v from 'valibot';

const optionalText = v.optional(v.fallback(v.string(), ''), '');

/**
 * Route options for a page whose search is a few optional texts (`?token=…`, `?error=…`): each '' when missing or
 * not a string, and left out of the address while '' (issue 25 item 12: clean URLs, no empty `?return_to=`).
 */
export function textSearch<const K extends string>(...names: K[]) {
  return {
    validateSearch: v.object(
      Object.fromEntries(names.map((name) => [name, optionalText])) as Record<K, typeof optionalText>,
    ),
    search: {
      middlewares: [
        // Built for any names, then typed for these: the router's types cannot check defaults against a generic.
        stripSearchParams<Record<string, string>>(
          Object.fromEntries(names.map((name) => [name, ''])),
        ) as SearchMiddleware<Record<K, string>>,
      ],
    },
  };
}

/** The search of a page a mailed link opens (`?token=…`). */
export const tokenSearch = textSearch('token');
