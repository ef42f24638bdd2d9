import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import { vi } from 'vitest';
import { createAppRouter, createQueryClient } from '../router';

export interface FakeResponse {
  status?: number;
  body?: unknown;
}

type Handler = (request: {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}) => FakeResponse | undefined;

/**
 * Replaces `fetch` with a router of canned answers keyed by "METHOD /path". Unknown calls answer 404 with the
 * error envelope, so a test notices a call it did not expect. Returns the list of calls made.
 */
export function fakeApi(routes: Record<string, FakeResponse | Handler>) {
  const calls: Array<{ method: string; url: string; headers: Record<string, string>; body: unknown }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input.toString();
    const method = init.method ?? 'GET';
    const headers = (init.headers ?? {}) as Record<string, string>;
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body;
    const call = { method, url, headers, body };
    calls.push(call);
    const route = routes[`${method} ${url}`];
    const answer = typeof route === 'function' ? route(call) : route;
    const { status = 200, body: payload } = answer ?? {
      status: 404,
      body: { detail: `No fake for ${method} ${url}`, code: 'not_found' },
    };
    return new Response(payload === undefined ? null : JSON.stringify(payload), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

/** Mounts the whole app (real route tree, guards and layouts) at `path`. */
export async function renderApp(path: string) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const router = createAppRouter(queryClient, { history: createMemoryHistory({ initialEntries: [path] }) });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  await act(async () => {
    await router.load();
  });
  return { ...view, router, queryClient };
}

export const PROFILE = {
  id: '7b0c2a36-64c5-4e7f-9d8e-3c8a4f6f1d10',
  full_name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: null,
  country: 'GB',
  state: null,
  city: 'London',
  profile_image_url: null,
  email_verified_at: null,
  phone_verified_at: null,
  age_verified: true,
  location_verified: false,
  identity_verified: false,
  age_verified_at: '2026-11-01T10:00:00.000Z',
  location_verified_at: null,
  identity_verified_at: null,
  is_active: true,
  is_verified: false,
  is_partner: false,
  created_at: '2026-10-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};
