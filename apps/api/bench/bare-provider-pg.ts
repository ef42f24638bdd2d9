/**
 * The floor under issue 26 item 6's OpenID Connect targets on PostgreSQL: an oidc-provider adapter that keeps every
 * model in one PostgreSQL table and does nothing else — no audit row, no account read, no metrics, no logging. Each
 * adapter call is one named prepared statement, except that a token's read brings its grant with it (and an access
 * token's read any refresh token of the same value) and a session's read the grants it names, so that userinfo and
 * introspection are one round trip each and a flow no more than ours. A consume is the same conditional UPDATE as
 * ours, its row count unread. bare-provider.ts runs with it when BARE_DATABASE_URL is set; the OIDC bench compares
 * this provider with the same provider on its in-memory adapter: the most a provider on PostgreSQL reaches here.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import Provider from 'oidc-provider';
import pg from 'pg';

/**
 * Models read with their grant in one statement; an access token and a refresh token share one namespace of ids. The
 * models are written into the statement: with `model = ANY($2)` PostgreSQL estimates its generic plan dearer than
 * the custom ones and plans the statement again on every execution.
 */
const TOKENS = {
  name: 'floor_find_token',
  models: "'AccessToken', 'RefreshToken'",
  grant: 'g.id = t.grant_id',
};
const WITH_GRANT: Record<string, { name: string; models: string; grant: string }> = {
  AccessToken: TOKENS,
  RefreshToken: TOKENS,
  AuthorizationCode: { name: 'floor_find_code', models: "'AuthorizationCode'", grant: 'g.id = t.grant_id' },
  Session: { name: 'floor_find_session', models: "'Session'", grant: 'g.id = ANY(t.grant_ids)' },
};

/** Payloads are stored as JSON text, as ours stores them (oidc_payloads.payload), and parsed here. */
interface Row {
  model: string;
  payload: string;
  expires_at: Date | null;
  consumed_at: Date | null;
  g_id: string | null;
  g_payload: string | null;
  g_expires_at: Date | null;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS floor_oidc (model text NOT NULL, id text NOT NULL, payload text NOT NULL,
  grant_id text, grant_ids text[], uid text, expires_at timestamptz, consumed_at timestamptz, PRIMARY KEY (model, id));
  CREATE INDEX IF NOT EXISTS floor_oidc_grant ON floor_oidc (grant_id);
  CREATE INDEX IF NOT EXISTS floor_oidc_uid ON floor_oidc (uid)`;

const live = (expiresAt: Date | null) => expiresAt === null || expiresAt.getTime() > Date.now();
/** A row's payload as oidc-provider reads it (`consumed` set once consumed), or undefined when absent or expired. */
const payloadOf = (row: Pick<Row, 'payload' | 'expires_at' | 'consumed_at'> | undefined) => {
  if (!row || !live(row.expires_at)) return undefined;
  const parsed = JSON.parse(row.payload) as AdapterPayload;
  return row.consumed_at ? { ...parsed, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : parsed;
};

/** The adapter class for `new Provider(…, { adapter })`, and the pool's statement count (round trips). */
export async function floorAdapter(databaseUrl: string) {
  // Idle connections stay open, as under load: a backend that exits takes its CPU time out of the bench's PostgreSQL
  // total (postgresCpuMs) while another side is measured.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, idleTimeoutMillis: 0 });
  await pool.query(SCHEMA);
  let roundTrips = 0;
  const run = async <T extends pg.QueryResultRow>(name: string, text: string, values: unknown[]) => {
    roundTrips += 1;
    return (await pool.query<T>({ name, text, values })).rows;
  };
  /**
   * This request's joined reads, by id: a second find of the same id in the request (introspection looks a value up
   * as an access and a refresh token at once) and the grant's find that follows take their rows from them. A write
   * of that id forgets them, so that nothing read before it is answered after it.
   */
  const requestReads = new WeakMap<object, Map<string, Promise<Row[]>>>();
  const readsOfRequest = (create: boolean) => {
    const ctx = Provider.ctx as object | undefined;
    let reads = ctx ? requestReads.get(ctx) : undefined;
    if (ctx && !reads && create) requestReads.set(ctx, (reads = new Map()));
    return reads;
  };
  const single = async (name: string, column: 'id' | 'uid', model: string, value: string) =>
    payloadOf(
      (
        await run<Row>(
          name,
          `SELECT payload, expires_at, consumed_at FROM floor_oidc WHERE model = $1 AND ${column} = $2`,
          [model, value],
        )
      )[0],
    );

  class FloorAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      readsOfRequest(false)?.delete(id);
      await run(
        'floor_upsert',
        `INSERT INTO floor_oidc (model, id, payload, grant_id, grant_ids, uid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload,
         grant_id = excluded.grant_id, grant_ids = excluded.grant_ids, uid = excluded.uid,
         expires_at = excluded.expires_at`,
        [
          this.model,
          id,
          JSON.stringify(payload),
          payload.grantId ?? null,
          // A session's grants, one per client it authorised (oidc-provider's `authorizations`).
          payload.authorizations
            ? Object.values(payload.authorizations).flatMap((entry) => entry.grantId ?? [])
            : null,
          payload.uid ?? null,
          expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        ],
      );
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const joined = WITH_GRANT[this.model];
      if (joined) {
        const reads = readsOfRequest(true);
        let rows = reads?.get(id);
        if (!rows) {
          rows = run<Row>(
            joined.name,
            `SELECT t.model, t.payload, t.expires_at, t.consumed_at, g.id AS g_id, g.payload AS g_payload,
               g.expires_at AS g_expires_at
             FROM floor_oidc t LEFT JOIN floor_oidc g ON g.model = 'Grant' AND ${joined.grant}
             WHERE t.id = $1 AND t.model IN (${joined.models})`,
            [id],
          );
          reads?.set(id, rows);
        }
        return payloadOf((await rows).find((candidate) => candidate.model === this.model));
      }
      if (this.model === 'Grant') {
        for (const rows of readsOfRequest(false)?.values() ?? []) {
          const row = (await rows).find((candidate) => candidate.g_id === id);
          if (row?.g_payload)
            return payloadOf({ payload: row.g_payload, expires_at: row.g_expires_at, consumed_at: null });
        }
      }
      return single('floor_find', 'id', this.model, id);
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return single('floor_find_by_uid', 'uid', this.model, uid);
    }

    findByUserCode(): Promise<undefined> {
      return Promise.resolve(undefined); // device flow is off
    }

    async consume(id: string): Promise<void> {
      readsOfRequest(false)?.delete(id);
      await run(
        'floor_consume',
        'UPDATE floor_oidc SET consumed_at = now() WHERE model = $1 AND id = $2 AND consumed_at IS NULL',
        [this.model, id],
      );
    }

    async destroy(id: string): Promise<void> {
      readsOfRequest(false)?.delete(id);
      await run('floor_destroy', 'DELETE FROM floor_oidc WHERE model = $1 AND id = $2', [this.model, id]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await run('floor_revoke', 'DELETE FROM floor_oidc WHERE grant_id = $1', [grantId]);
    }
  }

  return { FloorAdapter, roundTrips: () => roundTrips };
}
