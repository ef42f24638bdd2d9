import { Op } from 'sequelize';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Deps } from '../core/deps';
import { toBool, toDate } from '../db/rows';
import { publicSiteIconUrl } from '../lib/site-icons';
import { ACCOUNT_COLUMNS } from './account';
import { createArtefactCodec } from './artefacts';
import {
  keepForRequest,
  requestAccountKey,
  requestConsentKey,
  requestRowsScope,
  takeRequestRow,
  type RequestEndpoint,
  type RequestRows,
} from './request-rows';

/** A user's consent to a client with its Grant payload, as one joined row (grants/service.ts picks the live one). */
export interface ConsentRow {
  id: string;
  expires_at: unknown;
  updated_at: unknown;
  g_payload: string | null;
  g_expires_at: unknown;
  g_consumed_at: unknown;
}

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
  domain: string;
  redirect_uris: string;
  allowed_scopes: string;
  icon_key: string | null;
  is_active: unknown;
  partner_status: string;
}

export interface PayloadRow {
  payload: string;
  expires_at: unknown;
  consumed_at: unknown;
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
 * The token's account: users.id is a UUID on PostgreSQL and oidc_payloads.account_id text, so the join casts it,
 * and only when it has a UUID's form (a cast of anything else would fail the statement); SQLite compares text.
 */
const ACCOUNT_ID = {
  sqlite: 't.account_id',
  postgres: `CASE WHEN t.account_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    THEN CAST(t.account_id AS uuid) END`,
} as const;
const ACCOUNT_JOIN = {
  sqlite: `LEFT JOIN users u ON u.id = ${ACCOUNT_ID.sqlite}`,
  postgres: `LEFT JOIN users u ON u.id = ${ACCOUNT_ID.postgres}`,
} as const;

/**
 * The authorization endpoint's session with its account and, for the client the request names, the account's
 * unrevoked consents with their Grant payloads (grants/service.ts activeGrant picks the live one): one row per
 * consent, or one with null `a_*` columns when there is none.
 */
const sessionWithConsentSql = (dialect: 'sqlite' | 'postgres') => `SELECT t.id, t.payload, t.expires_at,
    t.consumed_at, u.id AS u_present, ${ACCOUNT_COLUMNS.map((column) => `u.${column} AS u_${column}`).join(', ')},
    a.id AS a_id, a.expires_at AS a_expires_at, a.updated_at AS a_updated_at,
    ag.payload AS ag_payload, ag.expires_at AS ag_expires_at, ag.consumed_at AS ag_consumed_at
  FROM oidc_payloads t
  ${ACCOUNT_JOIN[dialect]}
  LEFT JOIN oauth_authorizations a ON a.user_id = ${ACCOUNT_ID[dialect]} AND a.client_id = :clientId
    AND a.revoked_at IS NULL
  LEFT JOIN oidc_payloads ag ON ag.model = 'Grant' AND ag.id = a.id
  WHERE t.model = 'Session' AND t.id = :id`;

/**
 * An access token (or a refresh token with the same value: both are keyed by the value's hash), its grant and, when
 * asked, its account: one statement.
 */
const tokenWithGrantSql = (
  accountJoin: string | null,
) => `SELECT t.model, t.payload, t.expires_at, t.consumed_at,
    g.id AS g_id, g.payload AS g_payload, g.expires_at AS g_expires_at, g.consumed_at AS g_consumed_at${
      accountJoin
        ? `, u.id AS u_present, ${ACCOUNT_COLUMNS.map((column) => `u.${column} AS u_${column}`).join(', ')}`
        : ''
    }
  FROM oidc_payloads t
  LEFT JOIN oidc_payloads g ON g.model = 'Grant' AND g.id = t.grant_id${
    accountJoin ? `\n  ${accountJoin}` : ''
  }
  WHERE t.model IN ('AccessToken', 'RefreshToken') AND t.id = :id`;

/**
 * A payload by its stored id with, in the same statement, its grant (when `withGrant`) and its account: the token
 * endpoint's authorization code or refresh token, the authorization endpoint's session.
 */
const payloadWithRowsSql = (model: string, withGrant: boolean, accountJoin: string) => `SELECT t.id,
    t.payload, t.expires_at, t.consumed_at${
      withGrant
        ? ', g.id AS g_id, g.payload AS g_payload, g.expires_at AS g_expires_at, g.consumed_at AS g_consumed_at'
        : ''
    }, u.id AS u_present, ${ACCOUNT_COLUMNS.map((column) => `u.${column} AS u_${column}`).join(', ')}
  FROM oidc_payloads t${withGrant ? "\n  LEFT JOIN oidc_payloads g ON g.model = 'Grant' AND g.id = t.grant_id" : ''}
  ${accountJoin}
  WHERE t.model = '${model}' AND t.id = :id`;

/** Which lookups of which provider request read their related rows with them (request-rows.ts). */
const JOINED_READS: Partial<Record<RequestEndpoint, Record<string, { withGrant: boolean }>>> = {
  token: { AuthorizationCode: { withGrant: true }, RefreshToken: { withGrant: true } },
  authorization: { Session: { withGrant: false } },
};

interface TokenWithGrantRow extends PayloadRow {
  model: string;
  g_id: string | null;
  g_payload: string | null;
  g_expires_at: unknown;
  g_consumed_at: unknown;
  u_present?: string | null;
  [column: string]: unknown;
}

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
 * The provider's time base: oidc-provider stamps `iat`/`exp` with the real clock (not the injected one), so the
 * adapter must judge expiry on the same clock or the two would disagree in tests that move the app's clock.
 */
const providerNow = () => Date.now();

/** A stored payload as the provider takes it: undefined once expired, `consumed` from the row's consumption time. */
function payloadOf(row: PayloadRow | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  const expiresAt = toDate(row.expires_at);
  if (expiresAt && expiresAt.getTime() <= providerNow()) return undefined;
  const payload = JSON.parse(row.payload) as AdapterPayload;
  const consumedAt = toDate(row.consumed_at);
  if (consumedAt) payload.consumed = Math.floor(consumedAt.getTime() / 1000);
  return payload;
}

/**
 * A Grant row read with something else in this provider request (the user's live consent, index.ts
 * loadExistingGrant), handed to the `Grant.find` of the same id that follows; nothing outside a provider request
 * that reads related rows together (request-rows.ts).
 */
export function keepGrantRowForRequest(grantId: string, row: PayloadRow | null): void {
  const scope = requestRowsScope();
  if (scope) keepForRequest(scope, `Grant:${grantId}`, Promise.resolve(row ? payloadOf(row) : undefined));
}

/**
 * Storage for oidc-provider (DESIGN.md §4; modelled on panva's example/my_adapter.js and logto's adapter):
 * - `Client` is read from the sites table: a site is a client as long as it and its partner are active.
 * - Every other model lives in one `oidc_payloads` table keyed by (model, id), with indexed columns for the
 *   lookups the provider makes (session uid, grant id, device user code), an expiry that `find` honours, and a
 *   consumption time that `find` reports (reuse of a consumed code or refresh token revokes the grant).
 * - Bearer artefacts (tokens, codes, session cookies…) are keyed by a hash of their value and stored without it
 *   (artefacts.ts): every id the provider passes is hashed here, on write and on lookup alike.
 */
export function createAdapterFactory(deps: Pick<Deps, 'db' | 'config'>, hooks: AdapterHooks = {}) {
  const { OidcPayload } = deps.db.models;
  const artefacts = createArtefactCodec(deps.config.masterKey);

  /*
   * Reads go through `db.read` (plain prepared SELECTs run at once on SQLite, the pool on PostgreSQL) rather than
   * Sequelize models: every token, userinfo and introspection request makes several of them, and Sequelize's
   * query building and instance hydration were most of their CPU time. Expiry is judged in JavaScript, so no date
   * literal has to match the way each dialect stores timestamps.
   */
  const TOKEN_WITH_GRANT = tokenWithGrantSql(null);
  const TOKEN_WITH_GRANT_AND_ACCOUNT = tokenWithGrantSql(ACCOUNT_JOIN[deps.db.dialect]);

  async function loadClient(clientId: string): Promise<AdapterPayload | undefined> {
    const [site] = await deps.db.read<SiteRow>(
      `SELECT s.id, s.partner_id, s.client_id, s.client_type, s.client_secret_hash, s.site_name, s.domain, s.redirect_uris,
              s.allowed_scopes, s.icon_key, s.is_active, p.status AS partner_status
         FROM sites s JOIN partners p ON p.id = s.partner_id
        WHERE s.client_id = :clientId AND s.deleted_at IS NULL`,
      { clientId },
    );
    if (!site) return hooks.findOtherClient?.(clientId);
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
  }

  /**
   * One payload by its id (the value the provider presents: hashed for bearer artefacts), its session uid, or its
   * device user code (hashed like an id).
   */
  async function findPayload(column: 'id' | 'uid' | 'user_code', model: string, value: string) {
    const key = column === 'uid' ? value : artefacts.keyOf(model, value);
    const [row] = await deps.db.read<PayloadRow & { id: string }>(
      `SELECT id, payload, expires_at, consumed_at FROM oidc_payloads WHERE model = :model AND ${column} = :value`,
      { model, value: key },
    );
    const payload = payloadOf(row);
    if (!payload || !row) return undefined;
    const presented = column === 'id' ? { id: value } : column === 'user_code' ? { userCode: value } : {};
    return artefacts.restore(model, row.id, payload, presented);
  }

  /** A token row read by the value `id`: its payload with the value given back as its jti. */
  function tokenPayloadOf(row: PayloadRow | undefined, id: string): AdapterPayload | undefined {
    const payload = payloadOf(row);
    if (payload) payload.jti = id;
    return payload;
  }

  /**
   * AccessToken.find inside a provider request: reads the token with its grant (and account, for userinfo) in one
   * statement and leaves them for the lookups that follow in the same request (RequestRows). Outside a request
   * (or for other models) the ordinary single-row read.
   */
  function findAccessToken(id: string): Promise<AdapterPayload | undefined> {
    const scope = requestRowsScope();
    if (!scope || (scope.endpoint !== 'userinfo' && scope.endpoint !== 'introspection'))
      return findPayload('id', 'AccessToken', id);
    // Access and refresh tokens are hashed alike, so one key finds a refresh token with the same value too.
    const rows = deps.db.read<TokenWithGrantRow>(
      scope.withAccount ? TOKEN_WITH_GRANT_AND_ACCOUNT : TOKEN_WITH_GRANT,
      { id: artefacts.keyOf('AccessToken', id) },
    );
    // Introspection without a hint looks the value up as a refresh token too, in the same turn.
    keepForRequest(
      scope,
      `RefreshToken:${id}`,
      rows.then((found) =>
        tokenPayloadOf(
          found.find((row) => row.model === 'RefreshToken'),
          id,
        ),
      ),
    );
    return rows.then((found) => {
      const token = found.find((row) => row.model === 'AccessToken');
      if (!token) return undefined;
      const payload = tokenPayloadOf(token, id);
      keepRelatedRows(scope, token, scope.withAccount ? payload?.accountId : undefined);
      return payload;
    });
  }

  /** The grant and account columns of a joined row, kept for the lookups that follow in this request. */
  function keepRelatedRows(scope: RequestRows, row: TokenWithGrantRow, accountId: unknown): void {
    if (row.g_id) {
      const grant = row.g_payload
        ? payloadOf({ payload: row.g_payload, expires_at: row.g_expires_at, consumed_at: row.g_consumed_at })
        : undefined;
      keepForRequest(scope, `Grant:${row.g_id}`, Promise.resolve(grant));
    }
    if (typeof accountId === 'string') {
      let account: Record<string, unknown> | null = null;
      if (row.u_present != null) {
        account = {};
        for (const column of ACCOUNT_COLUMNS) account[column] = row[`u_${column}`];
      }
      keepForRequest(scope, requestAccountKey(accountId), Promise.resolve(account));
    }
  }

  const SESSION_WITH_CONSENT = sessionWithConsentSql(deps.db.dialect);

  /** The authorization endpoint's session, with its account and the account's consents for `clientId` kept. */
  async function findSessionWithConsent(
    scope: RequestRows,
    id: string,
    clientId: string,
  ): Promise<AdapterPayload | undefined> {
    const rows = await deps.db.read<TokenWithGrantRow & { id: string }>(SESSION_WITH_CONSENT, {
      id: artefacts.keyOf('Session', id),
      clientId,
    });
    const [row] = rows;
    const payload = payloadOf(row);
    if (!payload || !row) return undefined;
    keepRelatedRows(scope, row, payload.accountId);
    if (typeof payload.accountId === 'string') {
      const consents: ConsentRow[] = [];
      for (const each of rows) {
        if (each.a_id == null) continue;
        consents.push({
          id: each.a_id as string,
          expires_at: each.a_expires_at,
          updated_at: each.a_updated_at,
          g_payload: (each.ag_payload as string | null) ?? null,
          g_expires_at: each.ag_expires_at,
          g_consumed_at: each.ag_consumed_at,
        });
      }
      keepForRequest(scope, requestConsentKey(payload.accountId, clientId), Promise.resolve(consents));
    }
    return artefacts.restore('Session', row.id, payload, { id });
  }

  const joinedSql = new Map<string, string>();
  /** `model`'s payload with its grant and account in one statement (JOINED_READS), keeping those for the request. */
  async function findWithRelatedRows(
    scope: RequestRows,
    model: string,
    id: string,
    withGrant: boolean,
  ): Promise<AdapterPayload | undefined> {
    let sql = joinedSql.get(model);
    if (!sql)
      joinedSql.set(model, (sql = payloadWithRowsSql(model, withGrant, ACCOUNT_JOIN[deps.db.dialect])));
    const [row] = await deps.db.read<TokenWithGrantRow & { id: string }>(sql, {
      id: artefacts.keyOf(model, id),
    });
    const payload = payloadOf(row);
    if (!payload || !row) return undefined;
    keepRelatedRows(scope, row, payload.accountId);
    return artefacts.restore(model, row.id, payload, { id });
  }

  /**
   * A payload read earlier in this request with its access token, else (in a provider request that starts from
   * this model, JOINED_READS) read with its grant and account, else its own read.
   */
  function findById(model: string, id: string): Promise<AdapterPayload | undefined> {
    const kept = takeRequestRow<AdapterPayload | undefined>(`${model}:${id}`);
    if (kept) return kept;
    const scope = requestRowsScope();
    const joined = scope ? JOINED_READS[scope.endpoint]?.[model] : undefined;
    if (scope && model === 'Session' && scope.endpoint === 'authorization' && scope.clientId)
      return findSessionWithConsent(scope, id, scope.clientId);
    if (scope && joined) return findWithRelatedRows(scope, model, id, joined.withGrant);
    return findPayload('id', model, id);
  }

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
