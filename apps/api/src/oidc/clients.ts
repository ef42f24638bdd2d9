import type { AdapterPayload } from 'oidc-provider';
import type { Deps } from '../core/deps';
import { toBool } from '../db/rows';
import { publicSiteIconUrl } from '../lib/site-icons';

/** Extra client metadata the adapter adds to each site (declared in provider.ts `extraClientMetadata`). */
export interface SiteClientExtras {
  partner_id: string;
  site_id: string;
}

interface SiteRow {
  id: string;
  partner_id: string;
  client_id: string;
  client_type: string;
  client_secret_hash: string | null;
  site_name: string;
  domain: string;
  redirect_uris: string;
  allowed_scopes: string;
  icon_key: string | null;
  is_active: unknown;
  partner_status: string;
}

/**
 * Clients are cached per process for at most CLIENT_CACHE_TTL_MS: `Client.find` runs on every authorize, token,
 * userinfo and introspection request, and besides the read it hashes the metadata to find its Client instance.
 * A change made through the sites service (update, secret rotation, deactivation, deletion) clears the entry in
 * that process at once (`forgetClient`); other replicas, and changes made elsewhere (a partner suspended by an
 * admin), take effect within the TTL. Tokens and grants are never cached, so revoking a token or grant takes
 * effect immediately on every replica.
 */
export const CLIENT_CACHE_TTL_MS = 2_000;
type ClientCache = Map<string, { at: number; value: Promise<unknown> }>;
const clientCaches = new WeakMap<object, ClientCache>();
const clientCacheOf = (db: object): ClientCache => {
  let cache = clientCaches.get(db);
  if (!cache) clientCaches.set(db, (cache = new Map()));
  return cache;
};

/** Drops a client's cached metadata in this process (call after changing its site). */
export function forgetClient(db: object, clientId: string): void {
  clientCaches.get(db)?.delete(clientId);
}

/**
 * Puts the cache in front of a provider's `Client.find` (index.ts, for each provider it builds). Entries of an
 * earlier provider are dropped: its Client instances belong to that provider.
 */
export function cacheClientLookups<C>(
  db: object,
  Client: { find(id: string): Promise<C | undefined> },
): void {
  const cache = clientCacheOf(db);
  cache.clear();
  const find = Client.find.bind(Client);
  Client.find = (id: string) => {
    if (typeof id !== 'string' || !id) return find(id);
    const now = performance.now();
    const cached = cache.get(id);
    if (cached && now - cached.at < CLIENT_CACHE_TTL_MS) return cached.value as Promise<C | undefined>;
    if (cache.size >= 1_000) cache.clear();
    const value = find(id);
    cache.set(id, { at: now, value });
    value.catch(() => cache.delete(id));
    return value;
  };
}

/**
 * The provider's `Client.find`: a site is a client as long as it and its partner are active; an id no site has is
 * asked of `findOtherClient` (a wallet the operator registered, modules/users/wallet/clients.ts).
 */
export function createClientLoader(
  deps: Pick<Deps, 'db' | 'config'>,
  findOtherClient?: (clientId: string) => Promise<AdapterPayload | undefined>,
) {
  return async function loadClient(clientId: string): Promise<AdapterPayload | undefined> {
    const [site] = await deps.db.read<SiteRow>(
      `SELECT s.id, s.partner_id, s.client_id, s.client_type, s.client_secret_hash, s.site_name, s.domain, s.redirect_uris,
              s.allowed_scopes, s.icon_key, s.is_active, p.status AS partner_status
         FROM sites s JOIN partners p ON p.id = s.partner_id
        WHERE s.client_id = :clientId AND s.deleted_at IS NULL`,
      { clientId },
    );
    if (!site) return findOtherClient?.(clientId);
    if (!toBool(site.is_active) || site.partner_status !== 'active') return undefined;
    const confidential = site.client_type === 'confidential';
    const redirectUris = JSON.parse(site.redirect_uris) as string[];
    const allowedScopes = JSON.parse(site.allowed_scopes) as string[];
    const extras: SiteClientExtras = { partner_id: site.partner_id, site_id: site.id };
    return {
      client_id: site.client_id,
      client_name: site.site_name,
      // The stored keyed hash stands in for the secret; provider.ts compares presented secrets against it.
      ...(confidential
        ? { client_secret: site.client_secret_hash ?? undefined, client_secret_expires_at: 0 }
        : {}),
      token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
      application_type: 'web',
      redirect_uris: redirectUris,
      post_logout_redirect_uris: redirectUris,
      response_types: ['code'],
      grant_types: ['authorization_code', 'refresh_token'],
      // Protocol scopes are always allowed; product scopes only as the partner configured them (spec 01 §3).
      scope: ['openid', 'offline_access', ...allowedScopes].join(' '),
      subject_type: 'pairwise',
      // Redirect URIs on several hosts (all within the declared domain, sites/service.ts) need a sector identifier
      // for pairwise subjects (OpenID Connect Core §8.1): it is the declared domain. Subjects here are per partner
      // (account.ts), so the sector document is never fetched (provider.ts sectorIdentifierUriValidate).
      ...(new Set(redirectUris.map((uri) => new URL(uri).host)).size > 1
        ? { sector_identifier_uri: `https://${site.domain}/` }
        : {}),
      ...(site.icon_key ? { logo_uri: publicSiteIconUrl(deps.config.publicUrl, site.icon_key) } : {}),
      ...extras,
    };
  };
}
