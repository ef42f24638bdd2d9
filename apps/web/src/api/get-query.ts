import { queryOptions, type QueryKey } from '@tanstack/react-query';
import { apiFetch, type Auth } from './client';

/** A GET the screens read through React Query: its cache key, its path under /api/v1, and whose token it carries. */
export const getQueryOptions = <T>(queryKey: QueryKey, path: string, auth: Auth) =>
  queryOptions({ queryKey, queryFn: ({ signal }) => apiFetch<T>(path, { auth, signal }) });
