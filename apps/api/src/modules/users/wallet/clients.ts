import type { AdapterPayload } from 'oidc-provider';
import type { Database } from '../../../db/database';
import { toDate } from '../../../db/rows';
import type { Clock } from '../../../lib/clock';
import { forgetClient } from '../../../oidc/clients';

/**
 * Wallet clients the operator registers (issue 24 item 3): public OAuth clients (no secret; PKCE, required for every
 * client by provider.ts) that run the OpenID4VCI authorization code flow with exact redirect URIs. They may ask
 * only for credential configurations (their `scope`), never for OpenID Connect or product scopes. Rows in
 * `wallet_clients`, so that every replica sees them; the provider's client cache (oidc/adapter.ts) holds one for
 * at most two seconds.
 */

/** Reserved: the public client of the pre-authorized code flow (issuer.ts WALLET_CLIENT_ID). */
const RESERVED_CLIENT_IDS = new Set(['attestly-wallet']);
const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:~-]{2,127}$/;
const MAX_REDIRECT_URIS = 10;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'about:']);

/** An operator mistake in a registration: the CLI prints it as one line. */
export class WalletClientError extends Error {}

export interface WalletClient {
  clientId: string;
  name: string;
  redirectUris: string[];
  createdAt: Date;
}

interface WalletClientRow {
  client_id: string;
  name: string;
  redirect_uris: string;
  created_at: unknown;
}

const fromRow = (row: WalletClientRow): WalletClient => ({
  clientId: row.client_id,
  name: row.name,
  redirectUris: JSON.parse(row.redirect_uris) as string[],
  createdAt: toDate(row.created_at) ?? new Date(0),
});

/**
 * A wallet's redirect URI as OAuth for native apps allows it (RFC 8252 §7, and oidc-provider's rules for native
 * clients): a claimed https URI, a private-use scheme (`eudi-openid4ci://authorize`), or http on a loopback
 * address; never a fragment.
 */
export function checkRedirectUri(uri: string): string {
  const parsed = URL.parse(uri);
  if (!parsed || parsed.href !== uri)
    throw new WalletClientError(`redirect URI ${uri} is not an absolute URI in its normal form`);
  if (parsed.hash || uri.includes('#'))
    throw new WalletClientError(`redirect URI ${uri} must not have a fragment`);
  if (FORBIDDEN_SCHEMES.has(parsed.protocol))
    throw new WalletClientError(`redirect URI ${uri} uses a scheme that cannot be a redirect`);
  if (parsed.protocol === 'http:' && !LOOPBACK_HOSTS.has(parsed.hostname))
    throw new WalletClientError(`redirect URI ${uri}: plain http is allowed only on a loopback address`);
  if (parsed.protocol === 'https:' && LOOPBACK_HOSTS.has(parsed.hostname))
    throw new WalletClientError(`redirect URI ${uri}: use http, not https, on a loopback address`);
  return uri;
}

/** The provider's view of a wallet client (oidc-provider client metadata). */
export function walletClientMetadata(client: WalletClient): AdapterPayload {
  return {
    client_id: client.clientId,
    client_name: client.name,
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    redirect_uris: client.redirectUris,
    response_types: ['code'],
    grant_types: ['authorization_code'],
    // No OpenID Connect or product scope: a client's `scope` lists the provider's own scopes it may ask for (the
    // credential configurations' scopes belong to the issuer resource, issuer.ts), and offline_access is dropped
    // from every request of a client without the refresh_token grant. So `openid`, `AGE_18`… are invalid_scope.
    scope: 'offline_access',
    // …or by authorization_details of this type (authorization-details.ts); partner sites may use none.
    authorization_details_types: ['openid_credential'],
    wallet_client: true,
  };
}

export function createWalletClients(deps: { db: Database; clock: Clock }) {
  const { db } = deps;

  async function add(input: {
    clientId: string;
    name?: string;
    redirectUris: string[];
  }): Promise<WalletClient> {
    const clientId = input.clientId.trim();
    if (!CLIENT_ID.test(clientId))
      throw new WalletClientError(
        'the client id must be 3 to 128 letters, digits or . _ : ~ - (the one the wallet provider uses)',
      );
    if (RESERVED_CLIENT_IDS.has(clientId))
      throw new WalletClientError(`${clientId} is reserved for wallets using credential offers`);
    const redirectUris = [...new Set(input.redirectUris.map((uri) => checkRedirectUri(uri.trim())))];
    if (!redirectUris.length) throw new WalletClientError('give at least one redirect URI');
    if (redirectUris.length > MAX_REDIRECT_URIS)
      throw new WalletClientError(`at most ${MAX_REDIRECT_URIS} redirect URIs`);
    const name = (input.name ?? clientId).trim().slice(0, 200) || clientId;
    const [site] = await db.read<{ client_id: string }>(
      'SELECT client_id FROM sites WHERE client_id = :clientId',
      { clientId },
    );
    if (site) throw new WalletClientError(`${clientId} is a partner site's client id`);
    const client: WalletClient = { clientId, name, redirectUris, createdAt: deps.clock.now() };
    const inserted = await db.write(
      `INSERT INTO wallet_clients (client_id, name, redirect_uris, created_at)
       VALUES (:clientId, :name, :redirectUris, :createdAt) ON CONFLICT (client_id) DO NOTHING`,
      { clientId, name, redirectUris: JSON.stringify(redirectUris), createdAt: client.createdAt },
    );
    if (inserted !== 1)
      throw new WalletClientError(`a wallet client ${clientId} is already registered (remove it first)`);
    return client;
  }

  async function list(): Promise<WalletClient[]> {
    const rows = await db.read<WalletClientRow>(
      'SELECT client_id, name, redirect_uris, created_at FROM wallet_clients ORDER BY created_at, client_id',
      {},
    );
    return rows.map(fromRow);
  }

  async function find(clientId: string): Promise<WalletClient | null> {
    const [row] = await db.read<WalletClientRow>(
      'SELECT client_id, name, redirect_uris, created_at FROM wallet_clients WHERE client_id = :clientId',
      { clientId },
    );
    return row ? fromRow(row) : null;
  }

  /**
   * Removes a registration; its access tokens stop working with it (the credential endpoint loads their client): at
   * once in this process, within the client cache's two seconds elsewhere.
   */
  async function remove(clientId: string): Promise<boolean> {
    const removed =
      (await db.write('DELETE FROM wallet_clients WHERE client_id = :clientId', { clientId })) > 0;
    forgetClient(db, clientId);
    return removed;
  }

  return { add, list, find, remove };
}
export type WalletClients = ReturnType<typeof createWalletClients>;
