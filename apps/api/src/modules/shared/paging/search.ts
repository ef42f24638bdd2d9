import type { Deps } from '../../../core/deps';

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
