import type { Context } from 'koa';
import type * as v from 'valibot';
import type { RouteRequest } from '../../middleware/route';
import type { Deps } from '../../core/deps';
import type { RequestOrigin, SessionRecord } from '../shared/sessions/service';
import { origin } from '../../lib/request-origin';
import { num } from '../shared/paging/page';

/** Who is acting: the signed-in administrator and where the request came from (every audit entry names both). */
export interface AdminActor extends RequestOrigin {
  adminUserId: string;
}

export function actor(ctx: Context): AdminActor {
  return { adminUserId: (ctx.state.session as SessionRecord).subject_id, ...origin(ctx) };
}

/** An ISO string or null. */
export const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);

/** Dates bound as parameters: SQLite stores Sequelize dates as text, PostgreSQL as timestamptz. */
export function dateParam(db: Deps['db'], date: Date): string | Date {
  return db.dialect === 'sqlite' ? date.toISOString().replace('T', ' ').replace('Z', ' +00:00') : date;
}

/** Rows counted per key for the keys of one page (one grouped query, never one per row). */
export async function countsBy(
  db: Deps['db'],
  table: string,
  key: string,
  ids: string[],
  extra = '',
  params: Record<string, unknown> = {},
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const names = ids.map((_, i) => `:id${i}`).join(', ');
  const values = Object.fromEntries(ids.map((id, i) => [`id${i}`, id]));
  const rows = await db.read<{ k: string; n: number | string }>(
    `SELECT ${key} AS k, COUNT(*) AS n FROM ${table} WHERE ${key} IN (${names}) ${extra} GROUP BY ${key}`,
    { ...values, ...params },
  );
  return new Map(rows.map((row) => [String(row.k), num(row.n)]));
}

type IdParams = v.GenericSchema<unknown, { id: string }>;

/**
 * The input and handler of an administrator's action on one record (`/things/:id/…` with a body): the service is
 * given the record's id, the validated body and who acts, which its audit entry names.
 */
export function actionOn<B extends v.GenericSchema, R>(
  params: IdParams,
  body: B,
  act: (id: string, body: v.InferOutput<B>, who: AdminActor) => R,
) {
  return {
    input: { params, body },
    handler: (request: RouteRequest<{ params: IdParams; body: B }>) =>
      act(request.params.id, request.body, actor(request.ctx)),
  };
}

/** The input and handler of a back-office list: the validated query (filters and page), handed to the service. */
export function listOn<Q extends v.GenericSchema, R>(query: Q, list: (query: v.InferOutput<Q>) => R) {
  return {
    input: { query },
    handler: (request: RouteRequest<{ query: Q }>) => list(request.query),
  };
}

/** The input and handler of reading one record (`/things/:id`): the service is given the record's id. */
export function recordOn<R>(params: IdParams, read: (id: string) => R) {
  return {
    input: { params },
    handler: (request: RouteRequest<{ params: IdParams }>) => read(request.params.id),
  };
}
