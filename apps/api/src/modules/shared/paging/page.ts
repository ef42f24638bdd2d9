import type { Attributes, FindOptions, Model, ModelStatic } from 'sequelize';
import type { Deps } from '../../../core/deps';
import { shortTerm } from './search';

/**
 * Every list answer's paging (spec 02 §7: `skip`/`limit` in, the page and its `total_count` out), one owner for the
 * back office, partner and user lists alike: `page` for lists read as SQL (the back office's, with deferred joins and
 * search probes for large tables), `pageOf` for lists read through a model.
 */

/** Which page a list answer shows: `limit` rows after the first `skip` (the `paging` query of @attestly/contracts). */
export interface Paging {
  skip: number;
  limit: number;
}

/**
 * A page of a model's rows and how many rows match in all. `find` says which rows and in what order (an order that
 * ends in a unique column keeps pages from overlapping); the count reads the same WHERE.
 */
export async function pageOf<M extends Model>(
  model: ModelStatic<M>,
  find: Omit<FindOptions<Attributes<M>>, 'offset' | 'limit'>,
  paging: Paging,
): Promise<{ rows: M[]; total: number }> {
  const { rows, count } = await model.findAndCountAll({ ...find, offset: paging.skip, limit: paging.limit });
  return { rows, total: count };
}

/** A `:name`-parameterised WHERE clause under construction. */
export class Where {
  readonly parts: string[] = [];
  readonly params: Record<string, unknown> = {};
  private n = 0;

  add(sql: string, values: Record<string, unknown> = {}): this {
    this.parts.push(this.bind(sql, values));
    return this;
  }

  /** Binds the values of `sql` under names of their own and returns its text, without adding it to the clause. */
  bind(sql: string, values: Record<string, unknown> = {}): string {
    let text = sql;
    for (const [name, value] of Object.entries(values)) {
      const unique = `${name}_${this.n++}`;
      text = text.replaceAll(`:${name}`, `:${unique}`);
      this.params[unique] = value;
    }
    return text;
  }

  get sql(): string {
    return this.parts.length > 0 ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
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
  /**
   * With `scan`, for a term that no index narrows (too short for a trigram). PostgreSQL only, when the `probe` did not
   * fill the page: the matches are kept (a MATERIALIZED CTE of their key and ORDER BY columns), counted and sorted.
   * Left to itself, the planner costs `LIMIT` over `COUNT(*) OVER ()` as if the window stopped early, so it walks
   * the ORDER BY index over every row (random reads, and for verifications a lookup per row) instead of one
   * sequential pass.
   */
  materialize?: boolean;
  /**
   * With `scan`: rows of the key order read first, newest first over its index (see `page`), in stages of
   * `rows` (see `probeRows`). A term common enough to fill the page among them gets its keys there, without sorting
   * its matches, and its total from one COUNT(*); a rarer one takes the one-pass scan, whose few matches are cheap
   * to sort. A common term is what makes that pass slow: it sorts every match to keep 50 — all 300,000 verifications
   * for `example` when every address is at example.com.
   */
  probe?: {
    rows: readonly number[];
    /** Index in `where.parts` of the search condition; the other parts apply to the rows read first. */
    search: number;
    /**
     * The search condition as tested row by row, when `where.parts[search]` is written for a whole pass (an `IN`
     * over every matching account is built once per query, a cost a probe of 1,000 rows should not pay); bound with
     * `where.bind`.
     */
    hit?: string;
  };
}

/**
 * A page and its total_count (spec 02 §7: skip/limit). The count reads the same index range as the page's keys (no
 * row bodies), or, for a scan, comes from the same pass as the keys.
 */
export async function page<T>(
  db: Deps['db'],
  sql: PageQuery,
  paging: Paging,
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
  const materialize = sql.scan && sql.materialize && db.dialect === 'postgres';
  const probed = sql.scan ? await probeFirst(db, sql, paging) : null;
  if (probed) {
    keys = probed;
    total = await count();
  } else if (materialize) {
    // One pass keeps the matches (key and ORDER BY columns) under the alias that `order` and `key` use.
    const alias = sql.key.split('.')[0] as string;
    const columns = [
      ...new Set([...sql.order.split(',').map((part) => part.trim().split(/\s+/)[0] as string), sql.key]),
    ];
    keys = await db.read(
      `WITH hits AS MATERIALIZED (SELECT ${columns.join(', ')} FROM ${filterFrom} ${sql.where.sql})
       SELECT ${sql.key} AS k, COUNT(*) OVER () AS total FROM hits ${alias}
       ORDER BY ${sql.order} LIMIT :limit OFFSET :skip`,
      params,
    );
    total = keys.length > 0 ? num(keys[0]?.total) : paging.skip > 0 ? await count() : 0;
  } else if (sql.scan) {
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

/**
 * The stages of a search's probe (`PageQuery.probe`): the newest 1,000 rows, where a term matching 5 % of the rows
 * fills a page of 50; for a term too short for a trigram, which no index narrows, then 10,000 (0.5 %).
 */
export const probeRows = (term: string): readonly number[] => (shortTerm(term) ? [1_000, 10_000] : [1_000]);

/**
 * `PageQuery.probe`: the page's keys among the first rows of the key order, or null when the matches there do not
 * fill the page.
 */
async function probeFirst(
  db: Deps['db'],
  sql: PageQuery,
  paging: Paging,
): Promise<Array<{ k: unknown }> | null> {
  const probe = sql.probe;
  if (!probe || !sql.key) return null;
  const want = paging.skip + paging.limit;
  const others = sql.where.parts.filter((_, i) => i !== probe.search);
  const hit = probe.hit ?? sql.where.parts[probe.search];
  for (const rows of probe.rows.filter((each) => each >= want)) {
    // ROW_NUMBER() over the index order costs nothing more than the walk itself, and keeps the order of the matches.
    const found = await db.read<{ k: unknown }>(
      `SELECT s.k FROM (
         SELECT ${sql.key} AS k, ${hit} AS hit, ROW_NUMBER() OVER (ORDER BY ${sql.order}) AS n
         FROM ${sql.countFrom ?? sql.from} ${others.length > 0 ? `WHERE ${others.join(' AND ')}` : ''}
         ORDER BY ${sql.order} LIMIT :rows
       ) s WHERE s.hit ORDER BY s.n LIMIT :want`,
      { ...sql.where.params, rows, want },
    );
    if (found.length === want) return found.slice(paging.skip);
  }
  return null;
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
