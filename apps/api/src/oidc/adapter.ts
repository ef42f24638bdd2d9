import { Op } from 'sequelize';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Deps } from '../deps';
import { toBool, toDate } from '../db/read-pool';
import { publicSiteIconUrl } from '../modules/sites/presenters';

/** Models whose rows belong to a grant and go when it is revoked (oidc-provider's memory adapter keeps the same set). */
export const GRANTABLE_MODELS = [
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
] as const;

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
  redirect_uris: string;
  allowed_scopes: string;
  icon_key: string | null;
  is_active: unknown;
  partner_status: string;
}

interface PayloadRow {
  payload: string;
  expires_at: unknown;
  consumed_at: unknown;
}

/**
 * The provider's time base: oidc-provider stamps `iat`/`exp` with the real clock (not the injected one), so the
 * adapter must judge expiry on the same clock or the two would disagree in tests that move the app's clock.
 */
const providerNow = () => Date.now();

/**
 * Storage for oidc-provider (DESIGN.md §4; modelled on panva's example/my_adapter.js and logto's adapter):
 * - `Client` is read from the sites table: a site is a client as long as it and its partner are active.
 * - Every other model lives in one `oidc_payloads` table keyed by (model, id), with indexed columns for the
 *   lookups the provider makes (session uid, grant id, device user code), an expiry that `find` honours, and a
 *   consumption time that `find` reports (reuse of a consumed code or refresh token revokes the grant).
 */
export function createAdapterFactory(deps: Pick<Deps, 'db' | 'config'>) {
  const { OidcPayload } = deps.db.models;

  /*
   * Reads go through `db.read` (plain prepared SELECTs: read-only WAL connections on SQLite, the pool on
   * PostgreSQL) rather than Sequelize models: every token, userinfo and introspection request makes several of
   * them, and Sequelize's query building and instance hydration were most of their CPU time (userinfo on SQLite,
   * 2 cores, 16 connections: ~125 req/s before, ~1,000 after). Expiry is judged in JavaScript, so no date literal
   * has to match the way each dialect stores timestamps.
   */
  async function findClient(clientId: string): Promise<AdapterPayload | undefined> {
    const [site] = await deps.db.read<SiteRow>(
      `SELECT s.id, s.partner_id, s.client_id, s.client_type, s.client_secret_hash, s.site_name, s.redirect_uris,
              s.allowed_scopes, s.icon_key, s.is_active, p.status AS partner_status
         FROM sites s JOIN partners p ON p.id = s.partner_id
        WHERE s.client_id = :clientId AND s.deleted_at IS NULL`,
      { clientId },
    );
    if (!site || !toBool(site.is_active) || site.partner_status !== 'active') return undefined;
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
      ...(site.icon_key ? { logo_uri: publicSiteIconUrl(deps.config.publicUrl, site.icon_key) } : {}),
      ...extras,
    };
  }

  async function findPayload(column: 'id' | 'uid' | 'user_code', model: string, value: string) {
    const [row] = await deps.db.read<PayloadRow>(
      `SELECT payload, expires_at, consumed_at FROM oidc_payloads WHERE model = :model AND ${column} = :value`,
      { model, value },
    );
    if (!row) return undefined;
    const expiresAt = toDate(row.expires_at);
    if (expiresAt && expiresAt.getTime() <= providerNow()) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    const consumedAt = toDate(row.consumed_at);
    if (consumedAt) payload.consumed = Math.floor(consumedAt.getTime() / 1000);
    return payload;
  }

  return function adapterFor(model: string): Adapter {
    if (model === 'Client') {
      return {
        find: findClient,
        async upsert() {
          throw new Error('clients are managed as partner sites');
        },
        async destroy() {
          throw new Error('clients are managed as partner sites');
        },
        async consume() {},
        async findByUid() {
          return undefined;
        },
        async findByUserCode() {
          return undefined;
        },
        async revokeByGrantId() {},
      };
    }

    return {
      async upsert(id, payload, expiresIn) {
        await OidcPayload.upsert({
          model,
          id,
          payload: JSON.stringify(payload),
          grant_id: payload.grantId ?? null,
          user_code: payload.userCode ?? null,
          uid: payload.uid ?? null,
          expires_at: expiresIn ? new Date(providerNow() + expiresIn * 1000) : null,
          consumed_at: typeof payload.consumed === 'number' ? new Date(payload.consumed * 1000) : null,
        });
      },
      find: (id) => findPayload('id', model, id),
      findByUid: (uid) => findPayload('uid', model, uid),
      findByUserCode: (userCode) => findPayload('user_code', model, userCode),
      async consume(id) {
        await OidcPayload.update({ consumed_at: new Date(providerNow()) }, { where: { model, id } });
      },
      async destroy(id) {
        await OidcPayload.destroy({ where: { model, id } });
      },
      async revokeByGrantId(grantId) {
        // One table: the first call removes every token of the grant, whichever model the provider asked for.
        await OidcPayload.destroy({ where: { grant_id: grantId, model: [...GRANTABLE_MODELS] } });
      },
    };
  };
}

/** Deletes payloads that expired more than `graceMs` ago (the scheduler calls this; `find` already hides them). */
export async function purgeExpiredPayloads(deps: Pick<Deps, 'db'>, graceMs = 60 * 60_000): Promise<number> {
  return deps.db.models.OidcPayload.destroy({
    where: { expires_at: { [Op.lt]: new Date(providerNow() - graceMs) } },
  });
}
