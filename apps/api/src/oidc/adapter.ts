import { Op } from 'sequelize';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Deps } from '../deps';
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
  const { OidcPayload, Site, Partner } = deps.db.models;

  async function findClient(clientId: string): Promise<AdapterPayload | undefined> {
    const site = await Site.findOne({ where: { client_id: clientId, is_active: true, deleted_at: null } });
    if (!site) return undefined;
    const partner = await Partner.findByPk(site.partner_id, { attributes: ['id', 'status'] });
    if (!partner || partner.status !== 'active') return undefined;
    const confidential = site.client_type === 'confidential';
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
      redirect_uris: site.redirect_uris,
      post_logout_redirect_uris: site.redirect_uris,
      response_types: ['code'],
      grant_types: ['authorization_code', 'refresh_token'],
      // Protocol scopes are always allowed; product scopes only as the partner configured them (spec 01 §3).
      scope: ['openid', 'offline_access', ...site.allowed_scopes].join(' '),
      subject_type: 'pairwise',
      ...(site.icon_key ? { logo_uri: publicSiteIconUrl(deps.config.publicUrl, site.icon_key) } : {}),
      ...extras,
    };
  }

  function parse(row: { payload: string; consumed_at: Date | null }): AdapterPayload {
    const payload = JSON.parse(row.payload) as AdapterPayload;
    if (row.consumed_at) payload.consumed = Math.floor(row.consumed_at.getTime() / 1000);
    return payload;
  }

  const live = () => ({
    [Op.or]: [{ expires_at: null }, { expires_at: { [Op.gt]: new Date(providerNow()) } }],
  });

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
      async find(id) {
        const row = await OidcPayload.findOne({
          where: { model, id, ...live() },
          attributes: ['payload', 'consumed_at'],
        });
        return row ? parse(row) : undefined;
      },
      async findByUid(uid) {
        const row = await OidcPayload.findOne({
          where: { model, uid, ...live() },
          attributes: ['payload', 'consumed_at'],
        });
        return row ? parse(row) : undefined;
      },
      async findByUserCode(userCode) {
        const row = await OidcPayload.findOne({
          where: { model, user_code: userCode, ...live() },
          attributes: ['payload', 'consumed_at'],
        });
        return row ? parse(row) : undefined;
      },
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
