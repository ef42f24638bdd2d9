import type { Context } from 'koa';
import type { Deps } from '../../core/deps';
import type { RequestOrigin, SessionRecord } from '../shared/sessions/service';
import { origin } from '../../lib/request-origin';

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

/** The shortest term pg_trgm can extract a trigram from: shorter ones cannot use the trigram indexes at all. */
export const TRIGRAM_MIN = 3;

/** A term too short for the trigram indexes (code points, not UTF-16 units). */
export const shortTerm = (term: string): boolean => [...term].length < TRIGRAM_MIN;

/**
 * SQL for "`column` contains `term`, ignoring case" (`LOWER(column) LIKE '%term%'`), with the term's parameters.
 *
 * SQLite: `column LIKE pattern` (see `lowered`). PostgreSQL, terms of 3 characters or more: `LOWER(column) LIKE
 * pattern`, the expression of the pg_trgm indexes (migration 20261126120100). Shorter terms have no trigram, so
 * every row is read whatever the SQL, and what such a pass costs is mostly LOWER() itself (each value copied through
 * the locale's wide-character case mapping). They avoid it while matching exactly the same rows:
 * - a term of ASCII characters without letters (`42`, `.`): `column LIKE pattern`. Lower-casing turns letters into
 *   letters only, so the lowered value contains such a term exactly where the value itself does;
 * - a term of ASCII characters with letters (`jo`): an all-ASCII value (octet_length = char_length) is lowered by
 *   `LOWER(column COLLATE "C")`, which maps A–Z to a–z byte by byte, the same as the database's locale does for
 *   ASCII; any other value, or a database whose locale lowers ASCII otherwise (Turkish `I`; that constant test is
 *   folded by the planner), still takes `LOWER(column)`;
 * - any other term: `LOWER(column) LIKE pattern`.
 */
export function containsTerm(
  db: Deps['db'],
  column: string,
  term: string,
): { sql: string; params: Record<string, unknown> } {
  const pattern = likePattern(term);
  const lowerLike = { sql: `${lowered(db, column)} LIKE :pattern ${LIKE_ESCAPE}`, params: { pattern } };
  if (db.dialect !== 'postgres' || !shortTerm(term) || !/^[\x20-\x7e]*$/.test(term)) return lowerLike;
  if (!/[a-z]/i.test(term)) return { sql: `${column} LIKE :pattern ${LIKE_ESCAPE}`, params: { pattern } };
  return {
    sql: `(CASE WHEN octet_length(${column}) = char_length(${column})
        AND lower('ABCDEFGHIJKLMNOPQRSTUVWXYZ') = 'abcdefghijklmnopqrstuvwxyz'
      THEN LOWER(${column} COLLATE "C") LIKE :pattern ${LIKE_ESCAPE} ELSE ${lowerLike.sql} END)`,
    params: { pattern },
  };
}

/** `containsTerm` over several columns: any of them contains the term. */
export function anyContains(
  db: Deps['db'],
  columns: string[],
  term: string,
): { sql: string; params: Record<string, unknown> } {
  const parts = columns.map((column) => containsTerm(db, column, term));
  // The columns share one term, hence the same parameter names and values.
  return {
    sql: `(${parts.map((part) => part.sql).join(' OR ')})`,
    params: Object.assign({}, ...parts.map((part) => part.params)) as Record<string, unknown>,
  };
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
  paging: { skip: number; limit: number },
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
