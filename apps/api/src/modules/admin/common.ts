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

/**
 * A column lower-cased for a case-insensitive LIKE against `likePattern`. PostgreSQL: LOWER(column), the expression
 * its trigram indexes are built on. SQLite: the column itself, because SQLite's LIKE already ignores ASCII case and
 * its LOWER() changes ASCII letters only, so `LOWER(c) LIKE p` and `c LIKE p` match the same rows; skipping LOWER()
 * saves a string copy per row scanned.
 */
export const lowered = (db: Deps['db'], column: string): string =>
  db.dialect === 'postgres' ? `LOWER(${column})` : column;

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

/** How a page is read (see `page`). */
export interface PageQuery {
  /** The page's columns. */
  select: string;
  /** The relation the columns come from (joins for names and related rows included). */
  from: string;
  where: Where;
  /** ORDER BY; must end in a unique column so that pages do not overlap. */
  order: string;
  /** The relation the filters need (no joins for display only): keys and total_count are read from it. */
  countFrom?: string;
  /**
   * The unique key of a row (`u.id`). With it, the page is a deferred join: the keys of the page are read first from
   * `countFrom` alone, over the index that matches the filters and the ORDER BY (an index-only scan on PostgreSQL, a
   * covering index on SQLite), so `skip` costs index entries rather than whole rows; then the `limit` rows are
   * loaded by key. Without it, one plain LIMIT/OFFSET query.
   */
  key?: string;
  /**
   * The filters cannot use an index (a substring search without a trigram index): the keys and the total come from
   * one pass over the matches (COUNT(*) OVER ()) instead of two.
   */
  scan?: boolean;
}

/**
 * A page and its total_count (spec 02 §7: skip/limit). The count reads the same index range as the page's keys (no
 * row bodies), or, for a scan, comes from the same pass as the keys.
 */
export async function page<T>(
  db: Deps['db'],
  sql: PageQuery,
  paging: { skip: number; limit: number },
): Promise<{ rows: T[]; total: number }> {
  const params = { ...sql.where.params, limit: paging.limit, skip: paging.skip };
  const filterFrom = sql.countFrom ?? sql.from;
  const count = async () =>
    num(
      (
        await db.read<{ total: number | string }>(
          `SELECT COUNT(*) AS total FROM ${filterFrom} ${sql.where.sql}`,
          sql.where.params,
        )
      )[0]?.total,
    );
  if (!sql.key) {
    const [rows, total] = await Promise.all([
      db.read<T>(
        `SELECT ${sql.select} FROM ${sql.from} ${sql.where.sql} ORDER BY ${sql.order} LIMIT :limit OFFSET :skip`,
        params,
      ),
      count(),
    ]);
    return { rows, total };
  }
  let keys: Array<{ k: unknown; total?: number | string }>;
  let total: number;
  if (sql.scan) {
    keys = await db.read(
      `SELECT ${sql.key} AS k, COUNT(*) OVER () AS total FROM ${filterFrom} ${sql.where.sql}
       ORDER BY ${sql.order} LIMIT :limit OFFSET :skip`,
      params,
    );
    // Past the last match no row carries the total: counted apart (a page nobody asks for in practice).
    total = keys.length > 0 ? num(keys[0]?.total) : paging.skip > 0 ? await count() : 0;
  } else {
    [keys, total] = await Promise.all([
      db.read<{ k: unknown }>(
        `SELECT ${sql.key} AS k FROM ${filterFrom} ${sql.where.sql} ORDER BY ${sql.order} LIMIT :limit OFFSET :skip`,
        params,
      ),
      count(),
    ]);
  }
  if (keys.length === 0) return { rows: [], total };
  const ids = inList(
    'k',
    keys.map((row) => row.k),
  );
  const rows = await db.read<T>(
    `SELECT ${sql.select} FROM ${sql.from} WHERE ${sql.key} IN ${ids.sql} ORDER BY ${sql.order}`,
    ids.params,
  );
  return { rows, total };
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
  values: readonly unknown[],
): { sql: string; params: Record<string, unknown> } {
  return {
    sql: `(${values.map((_, i) => `:${prefix}${i}`).join(', ')})`,
    params: Object.fromEntries(values.map((value, i) => [`${prefix}${i}`, value])),
  };
}
