import type { AdapterPayload } from 'oidc-provider';
import type { Deps } from '../core/deps';
import { ACCOUNT_COLUMNS } from './account';
import type { ArtefactCodec } from './artefacts';
import {
  payloadOf,
  tokenPayloadOf,
  type ConsentRow,
  type FindPayload,
  type PayloadRow,
} from './payload-rows';
import {
  keepForRequest,
  requestAccountKey,
  requestConsentKey,
  requestRowsScope,
  takeRequestRow,
  type RequestEndpoint,
  type RequestRows,
} from './request-rows';

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
 * The adapter's `find` for models whose provider request reads related rows in the same statement (request-rows.ts):
 * `findAccessToken` for AccessToken, `findById` for every other model but Client. Outside such a request both fall
 * back to `findPayload`, the ordinary single-row read.
 */
export function createJoinedReads(
  deps: Pick<Deps, 'db'>,
  artefacts: ArtefactCodec,
  findPayload: FindPayload,
) {
  const TOKEN_WITH_GRANT = tokenWithGrantSql(null);
  const TOKEN_WITH_GRANT_AND_ACCOUNT = tokenWithGrantSql(ACCOUNT_JOIN[deps.db.dialect]);

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

  return { findAccessToken, findById };
}
