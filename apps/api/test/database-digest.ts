import { createHash } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { tableLines } from '../src/modules/operators/backup/service';
import { pgRows, sqliteRows } from '../src/modules/operators/backup/sources';
import { pgTables, sqliteTables, type TableInfo } from '../src/modules/operators/backup/tables';

export interface TableDigest {
  rows: number;
  sha256: string;
}

async function digestTables(
  tables: TableInfo[],
  rows: (table: TableInfo) => AsyncIterable<Record<string, unknown>>,
): Promise<Record<string, TableDigest>> {
  const digests: Record<string, TableDigest> = {};
  for (const table of tables) {
    const hash = createHash('sha256');
    let count = 0;
    for await (const line of tableLines(table, rows(table))) {
      hash.update(line);
      count += 1;
    }
    digests[table.name] = { rows: count, sha256: hash.digest('hex') };
  }
  return digests;
}

/**
 * Every table of a database, read straight from it (not from an archive): its row count and the SHA-256 of its rows
 * in primary-key order, each row in the dialect-neutral encoding (so a SQLite and a PostgreSQL copy of the same data
 * give the same digest, and any differing value, missing or extra row gives another).
 */
export async function databaseDigest(
  location: { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string },
): Promise<Record<string, TableDigest>> {
  if (location.dialect === 'sqlite') {
    const handle = new BetterSqlite3(location.file, { readonly: true, fileMustExist: true });
    try {
      return await digestTables(sqliteTables(handle), (table) => sqliteRows(handle, table));
    } finally {
      handle.close();
    }
  }
  const client = new pg.Client({ connectionString: location.url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const digests = await digestTables(await pgTables(client), (table) => pgRows(client, table));
    await client.query('COMMIT');
    return digests;
  } finally {
    await client.end();
  }
}
