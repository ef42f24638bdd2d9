import { Op } from 'sequelize';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Deps } from '../core/deps';
import { createArtefactCodec } from './artefacts';
import { createClientLoader } from './clients';
import { createJoinedReads } from './joined-reads';
import { GRANTABLE_MODELS, createPayloadReader, providerNow } from './payload-rows';

const UPSERT_PAYLOAD = `INSERT INTO oidc_payloads
    (model, id, payload, grant_id, user_code, uid, account_id, expires_at, consumed_at)
  VALUES (:model, :id, :payload, :grantId, :userCode, :uid, :accountId, :expiresAt, :consumedAt)
  ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
    user_code = excluded.user_code, uid = excluded.uid, account_id = excluded.account_id,
    expires_at = excluded.expires_at, consumed_at = excluded.consumed_at`;

/**
 * Marks a code or refresh token used, only if nobody has yet: of two concurrent redemptions (one replica or two,
 * SQLite or PostgreSQL) exactly one changes the row.
 */
const CONSUME_PAYLOAD = `UPDATE oidc_payloads SET consumed_at = :now
  WHERE model = :model AND id = :id AND consumed_at IS NULL`;

const CONSUMED_LABEL: Record<string, string> = {
  AuthorizationCode: 'authorization code already consumed',
  RefreshToken: 'refresh token already used',
  DeviceCode: 'device code already consumed',
  BackchannelAuthenticationRequest: 'backchannel authentication request already consumed',
  PreAuthorizedCode: 'pre-authorized code already consumed',
};

export interface AdapterHooks {
  /**
   * A code or refresh token was redeemed twice at once and this caller lost (RFC 6749 §4.1.2: revoke every token
   * issued from that code, when possible). The provider revokes the grant itself only when it sees the reuse
   * (sequential reuse); the race is seen here.
   */
  onConcurrentReuse?(grantId: string): Promise<unknown>;
  /** A client that is not a partner site: a wallet the operator registered (modules/users/wallet/clients.ts). */
  findOtherClient?(clientId: string): Promise<AdapterPayload | undefined>;
}

/**
 * Storage for oidc-provider (DESIGN.md §4; modelled on panva's example/my_adapter.js and logto's adapter):
 * - `Client` is read from the sites table: a site is a client as long as it and its partner are active
 *   (clients.ts).
 * - Every other model lives in one `oidc_payloads` table keyed by (model, id), with indexed columns for the
 *   lookups the provider makes (session uid, grant id, device user code), an expiry that `find` honours, and a
 *   consumption time that `find` reports (reuse of a consumed code or refresh token revokes the grant)
 *   (payload-rows.ts; inside a provider request, with its related rows in one statement: joined-reads.ts).
 * - Bearer artefacts (tokens, codes, session cookies…) are keyed by a hash of their value and stored without it
 *   (artefacts.ts): every id the provider passes is hashed here, on write and on lookup alike.
 */
export function createAdapterFactory(deps: Pick<Deps, 'db' | 'config'>, hooks: AdapterHooks = {}) {
  const { OidcPayload } = deps.db.models;
  const artefacts = createArtefactCodec(deps.config.masterKey);
  const loadClient = createClientLoader(deps, hooks.findOtherClient);
  const findPayload = createPayloadReader(deps, artefacts);
  const { findAccessToken, findById } = createJoinedReads(deps, artefacts, findPayload);

  return function adapterFor(model: string): Adapter {
    if (model === 'Client') {
      return {
        find: loadClient,
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
      // Plain statements (db.write) rather than OidcPayload.upsert/update: a flow writes several payloads, and
      // building and validating a model instance for each was a measurable share of a flow's CPU. db.write stores
      // dates exactly as the model would on either dialect.
      async upsert(id, payload, expiresIn) {
        const stored = artefacts.store(model, id, payload);
        await deps.db.write(UPSERT_PAYLOAD, {
          model,
          id: stored.id,
          payload: stored.payload,
          grantId: payload.grantId ?? null,
          userCode: stored.userCode,
          uid: payload.uid ?? null,
          // The account a session, grant or token belongs to, so that ending an account's sign-in can find them all.
          accountId: typeof payload.accountId === 'string' ? payload.accountId : null,
          expiresAt: expiresIn ? new Date(providerNow() + expiresIn * 1000) : null,
          consumedAt: typeof payload.consumed === 'number' ? new Date(payload.consumed * 1000) : null,
        });
      },
      find: model === 'AccessToken' ? findAccessToken : (id) => findById(model, id),
      findByUid: (uid) => findPayload('uid', model, uid),
      findByUserCode: (userCode) => findPayload('user_code', model, userCode),
      async consume(id) {
        const key = artefacts.keyOf(model, id);
        const changed = await deps.db.write(CONSUME_PAYLOAD, {
          now: new Date(providerNow()),
          model,
          id: key,
        });
        if (changed === 1) return;
        // Lost the race (or the row is gone): this redemption must fail and the grant must go.
        const [row] = await deps.db.read<{ grant_id: string | null }>(
          'SELECT grant_id FROM oidc_payloads WHERE model = :model AND id = :id',
          { model, id: key },
        );
        if (row?.grant_id && hooks.onConcurrentReuse) await hooks.onConcurrentReuse(row.grant_id);
        throw new errors.InvalidGrant(CONSUMED_LABEL[model] ?? 'grant already consumed');
      },
      async destroy(id) {
        await deps.db.write('DELETE FROM oidc_payloads WHERE model = :model AND id = :id', {
          model,
          id: artefacts.keyOf(model, id),
        });
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
