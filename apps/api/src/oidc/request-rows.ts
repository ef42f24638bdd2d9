import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Rows read in the same statement as the artefact a provider request starts from (its grant, its account, a refresh
 * token with the same value), kept for the rest of that one request only: each is handed out once, to the first
 * lookup that asks for it, and the whole map goes with the request (index.ts runs the provider inside
 * `withRequestRows`). It is not a cache — nothing outlives the request, so a grant revoked or an account disabled a
 * moment later is seen by the next request on every replica — it only saves the round trips of the separate reads
 * oidc-provider makes next:
 * - userinfo: access token, account, grant;
 * - introspection: access token, refresh token, grant;
 * - token: authorization code or refresh token, grant, account (for the ID token's claims);
 * - authorization: session, account; then the user's live consent for the site with its grant (index.ts
 *   loadExistingGrant).
 */
export type RequestEndpoint = 'userinfo' | 'introspection' | 'token' | 'authorization';
export interface RequestRows {
  readonly endpoint: RequestEndpoint;
  /** Join the token's account too (userinfo, where findAccount follows). */
  readonly withAccount: boolean;
  /** At the authorization endpoint, the client the request names: the session's read takes the user's consent too. */
  readonly clientId?: string;
  readonly rows: Map<string, Promise<unknown>>;
}
const requestRows = new AsyncLocalStorage<RequestRows>();

/** Runs one provider request with its own set of rows read together (see RequestRows). */
export function withRequestRows<T>(endpoint: RequestEndpoint, work: () => T, clientId?: string): T {
  return requestRows.run({ endpoint, withAccount: endpoint === 'userinfo', clientId, rows: new Map() }, work);
}

/** The row read for `key` earlier in this request, handed out once; undefined when there is none. */
export function takeRequestRow<T>(key: string): Promise<T> | undefined {
  const scope = requestRows.getStore();
  const row = scope?.rows.get(key);
  if (row) scope?.rows.delete(key);
  return row as Promise<T> | undefined;
}

export function keepForRequest(scope: RequestRows, key: string, row: Promise<unknown>): void {
  row.catch(() => undefined); // the taker sees the failure; an untaken row must not be an unhandled rejection
  scope.rows.set(key, row);
}

export const requestAccountKey = (accountId: string) => `Account:${accountId}`;

/** This request's rows, when a provider request is running (index.ts). */
export function requestRowsScope(): RequestRows | undefined {
  return requestRows.getStore();
}

/** The user row read with the access token (account.ts columns); null when there is none, undefined when not read. */
export function accountOfRequest(accountId: string): Promise<Record<string, unknown> | null> | undefined {
  return takeRequestRow<Record<string, unknown> | null>(requestAccountKey(accountId));
}

/** Where the user's consent rows for a client, read with the session, wait for index.ts loadExistingGrant. */
export const requestConsentKey = (accountId: string, clientId: string) => `Consent:${accountId}:${clientId}`;
