import { API_BASE_PATH, isErrorEnvelope, type AccountKind, type FieldError } from '@attestly/contracts';
import { accountKindForPath } from '../auth/account-kind';
import { tokens } from '../auth/token-storage';

/** A failed API call, carrying the server's error envelope (DESIGN.md §3). `detail` is what screens show. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly errors: FieldError[];
  readonly requestId: string | null;

  constructor(
    status: number,
    code: string,
    detail: string,
    errors: FieldError[] = [],
    requestId: string | null = null,
  ) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.errors = errors;
    this.requestId = requestId;
  }
}

/** The server's message when there is one, else the screen's fallback (spec 01 §8). */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.detail ? error.detail : fallback;
}

/**
 * Which token a request carries: a named kind, none at all (public endpoints), or 'auto' — the first stored token
 * in the order user, partner, admin (spec 01 §6). Callers of audience-specific endpoints name the kind so that a
 * person signed in as both user and partner sends the right one.
 */
export type Auth = AccountKind | 'auto' | 'none';

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-serialised, or sent as is when FormData (multipart). */
  body?: unknown;
  auth?: Auth;
  signal?: AbortSignal;
  /** Answer statuses that are data rather than errors (e.g. 503 from /readyz). */
  acceptStatus?: number[];
  /** The path is a server path (`/readyz`) rather than one under /api/v1. */
  root?: boolean;
  /** Extra request headers (e.g. X-Attestly-Interaction on verification calls). */
  headers?: Record<string, string>;
}

interface ClientHooks {
  /** The path of the page being shown or navigated to (the router's pending location). */
  currentPath(): string;
  /** Sends the browser to the sign-in page of `kind` after its token was removed. */
  onUnauthorized(kind: AccountKind): void;
}

let hooks: ClientHooks = {
  currentPath: () => window.location.pathname,
  onUnauthorized: () => undefined,
};

export function configureApiClient(next: Partial<ClientHooks>): void {
  hooks = { ...hooks, ...next };
}

/**
 * spec 01 §4: sign-in and sign-up answer 401 for a wrong password; that must not sign anybody out. The back office's
 * second-factor calls answer 401 for a wrong code in the same way (spec 02 §4).
 */
const CREDENTIAL_CALL = /\/(login|register|verify-2fa|enable-2fa)(\/|$)/;

function bearerFor(auth: Auth): string | null {
  if (auth === 'none') return null;
  if (auth === 'auto') return tokens.bearer();
  return tokens.token(auth);
}

/**
 * The one way the app calls its API. Paths are relative to /api/v1 (`/users/profile`) unless `root` is set. Errors
 * become `ApiError`; a 401 on anything but sign-in or sign-up removes the token of the kind the current page belongs to
 * and sends the browser to that kind's sign-in page — exactly once for the request (spec 01 §4).
 */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const url = request.root ? path : `${API_BASE_PATH}${path}`;
  const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
  const token = bearerFor(request.auth ?? 'auto');
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (request.body instanceof FormData) body = request.body;
  else if (request.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.body);
  }

  let response: Response;
  try {
    response = await fetch(url, { method: request.method ?? 'GET', headers, body, signal: request.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'Cannot reach the server. Check your connection and try again.');
  }

  const text = await response.text();
  let payload: unknown = undefined;
  if (text) {
    try {
      payload = JSON.parse(text);
    } catch {
      payload = undefined;
    }
  }
  if (response.ok || request.acceptStatus?.includes(response.status)) return payload as T;

  if (response.status === 401 && !CREDENTIAL_CALL.test(url)) {
    const kind = accountKindForPath(hooks.currentPath());
    tokens.clear(kind);
    hooks.onUnauthorized(kind);
  }
  if (isErrorEnvelope(payload)) {
    throw new ApiError(
      response.status,
      payload.code,
      payload.detail,
      payload.errors ?? [],
      payload.request_id ?? null,
    );
  }
  throw new ApiError(response.status, 'http_error', `HTTP error! status: ${response.status}`);
}
