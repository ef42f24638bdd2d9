import type { Context } from 'koa';
import type * as v from 'valibot';
import type { Deps } from '../../deps';
import type { RequestOrigin, SessionRecord } from '../sessions/service';
import { origin } from '../users/routes';

/** The typed input `validate` put on the context. */
export const input = <T extends v.GenericSchema>(
  ctx: Context,
  part: 'body' | 'query' | 'params',
  _schema: T,
) => (ctx.state.input as Record<string, unknown>)[part] as v.InferOutput<T>;

/** Who is acting: the signed-in administrator and where the request came from (every audit entry names both). */
export interface AdminActor extends RequestOrigin {
  adminUserId: string;
}

export function actor(ctx: Context): AdminActor {
  return { adminUserId: (ctx.state.session as SessionRecord).subject_id, ...origin(ctx) };
}

/** An ISO string or null. */
export const iso = (date: Date | null | undefined): string | null => (date ? date.toISOString() : null);

/** `LIKE` pattern for a search term, with the wildcard characters of the term itself escaped. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** SQL text for a case-insensitive LIKE with the escape character both dialects accept. */
export const LIKE_ESCAPE = "ESCAPE '\\'";

/** A `:name`-parameterised WHERE clause under construction. */
export class Where {
  readonly parts: string[] = [];
  readonly params: Record<string, unknown> = {};
  private n = 0;

  add(sql: string, values: Record<string, unknown> = {}): this {
    let text = sql;
    for (const [name, value] of Object.entries(values)) {
      const unique = `${name}_${this.n++}`;
      text = text.replaceAll(`:${name}`, `:${unique}`);
      this.params[unique] = value;
    }
    this.parts.push(text);
    return this;
  }

  get sql(): string {
    return this.parts.length > 0 ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}

/** Dates bound as parameters: SQLite stores Sequelize dates as text, PostgreSQL as timestamptz. */
export function dateParam(db: Deps['db'], date: Date): string | Date {
  return db.dialect === 'sqlite' ? date.toISOString().replace('T', ' ').replace('Z', ' +00:00') : date;
}

export const num = (value: unknown): number => Number(value ?? 0);

/**
 * A page and the total in one round trip each, both on the same filtered index range: the page reads `limit` rows
 * after `skip`, the count reads the index only (no row bodies).
 */
export async function page<T>(
  db: Deps['db'],
  sql: { select: string; from: string; where: Where; order: string; countFrom?: string },
  paging: { skip: number; limit: number },
): Promise<{ rows: T[]; total: number }> {
  const params = { ...sql.where.params, limit: paging.limit, skip: paging.skip };
  const [rows, counted] = await Promise.all([
    db.read<T>(
      `SELECT ${sql.select} FROM ${sql.from} ${sql.where.sql} ORDER BY ${sql.order} LIMIT :limit OFFSET :skip`,
      params,
    ),
    db.read<{ total: number | string }>(
      `SELECT COUNT(*) AS total FROM ${sql.countFrom ?? sql.from} ${sql.where.sql}`,
      sql.where.params,
    ),
  ]);
  return { rows, total: num(counted[0]?.total) };
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

/** `IN (…)` placeholders for a list bound as separate parameters. */
export function inList(
  prefix: string,
  values: readonly string[],
): { sql: string; params: Record<string, unknown> } {
  return {
    sql: `(${values.map((_, i) => `:${prefix}${i}`).join(', ')})`,
    params: Object.fromEntries(values.map((value, i) => [`${prefix}${i}`, value])),
  };
}
