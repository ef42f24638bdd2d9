import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { privateDatabaseFile, SQLITE_COMPANIONS } from '../../../db/private-file';
import { pgTables, sqliteTables, type TableInfo } from './tables';

/** Where a database lives, as the config names it. */
export type DatabaseLocation = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

export function locateDatabase(databaseUrl: string | null, dataDir: string): DatabaseLocation {
  if (databaseUrl && /^postgres(ql)?:/.test(databaseUrl)) return { dialect: 'postgres', url: databaseUrl };
  return {
    dialect: 'sqlite',
    file: databaseUrl ? databaseUrl.replace(/^sqlite:(\/\/)?/, '') : path.join(dataDir, 'attestly.sqlite'),
  };
}

/** A consistent, read-only view of a database while the server keeps running. */
export interface Snapshot {
  dialect: 'sqlite' | 'postgres';
  tables: TableInfo[];
  migrations: string[];
  count(table: TableInfo): Promise<number>;
  rows(table: TableInfo): AsyncIterable<Record<string, unknown>>;
  close(): Promise<void>;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const BATCH = 2000;

export function orderClause(table: TableInfo, dialect: 'sqlite' | 'postgres'): string {
  return table.orderBy
    .map((name) => {
      const kind = table.columns.find((column) => column.name === name)?.kind;
      // PostgreSQL orders text by the database's collation; "C" is byte order, as SQLite's BINARY.
      return dialect === 'postgres' && kind === 'text' && table.textColumns?.has(name)
        ? `${quote(name)} COLLATE "C"`
        : quote(name);
    })
    .join(', ');
}

function sqliteMigrations(handle: BetterSqlite3.Database): string[] {
  const exists = handle
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'attestly_migrations'")
    .get();
  if (!exists) return [];
  return (handle.prepare('SELECT name FROM attestly_migrations').all() as Array<{ name: string }>).map(
    (row) => row.name,
  );
}

/** Reads rows of an open SQLite handle (a snapshot copy, or a restore target inside its transaction). */
export async function* sqliteRows(
  handle: BetterSqlite3.Database,
  table: TableInfo,
): AsyncGenerator<Record<string, unknown>> {
  const statement = handle.prepare(
    `SELECT * FROM ${quote(table.name)} ORDER BY ${orderClause(table, 'sqlite')}`,
  );
  let seen = 0;
  for (const row of statement.iterate() as Iterable<Record<string, unknown>>) {
    yield row;
    // Let timers (progress output) run now and then: the iteration itself is synchronous.
    if (++seen % 5000 === 0) await yieldToLoop();
  }
}

/**
 * SQLite: the online backup API copies the live database page by page into a private file (writers continue
 * meanwhile), which is then read at leisure and deleted. The copy holds everything the database does: it is created
 * 0600 beside the database (same file system, same protection), switched from the live database's WAL mode to a
 * rollback journal so that reading it leaves no -wal or -shm files behind, and removed with every companion file
 * whether the backup succeeds or fails.
 */
export async function openSqliteSnapshot(file: string, workDir: string): Promise<Snapshot> {
  const copy = path.join(workDir, `.backup-snapshot-${randomBytes(6).toString('hex')}.sqlite`);
  const remove = () => {
    for (const suffix of ['', ...SQLITE_COMPANIONS]) rmSync(copy + suffix, { force: true });
  };
  let handle: BetterSqlite3.Database | null = null;
  try {
    privateDatabaseFile(copy);
    const live = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    try {
      await live.backup(copy);
    } finally {
      live.close();
    }
    const writable = new BetterSqlite3(copy, { fileMustExist: true });
    try {
      writable.pragma('journal_mode = DELETE');
    } finally {
      writable.close();
    }
    const open = new BetterSqlite3(copy, { readonly: true, fileMustExist: true });
    handle = open;
    const tables = sqliteTables(open);
    const migrations = sqliteMigrations(open);
    return {
      dialect: 'sqlite',
      tables,
      migrations,
      count: async (table) =>
        (open.prepare(`SELECT COUNT(*) AS n FROM ${quote(table.name)}`).get() as { n: number }).n,
      rows: (table) => sqliteRows(open, table),
      async close() {
        try {
          open.close();
        } finally {
          remove();
        }
      },
    };
  } catch (error) {
    handle?.close();
    remove();
    throw error;
  }
}

export async function pgMigrations(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ exists: boolean }>(
    "SELECT to_regclass(current_schema() || '.attestly_migrations') IS NOT NULL AS exists",
  );
  if (!rows[0]?.exists) return [];
  return (await client.query<{ name: string }>('SELECT name FROM attestly_migrations')).rows.map(
    (row) => row.name,
  );
}

/** Reads rows through a cursor (bounded memory) on a client that is inside a transaction. */
export async function* pgRows(
  client: pg.ClientBase,
  table: TableInfo,
): AsyncGenerator<Record<string, unknown>> {
  const cursor = `backup_${table.name.replace(/\W/g, '_')}`;
  await client.query(
    `DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT * FROM ${quote(table.name)} ORDER BY ${orderClause(table, 'postgres')}`,
  );
  try {
    for (;;) {
      const { rows } = await client.query<Record<string, unknown>>(`FETCH ${BATCH} FROM ${cursor}`);
      for (const row of rows) yield row;
      if (rows.length < BATCH) break;
    }
  } finally {
    await client.query(`CLOSE ${cursor}`);
  }
}

/** PostgreSQL: one REPEATABLE READ, READ ONLY transaction sees every table as of the same instant. */
export async function openPgSnapshot(url: string): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const tables = await pgTables(client);
    const migrations = await pgMigrations(client);
    return {
      dialect: 'postgres',
      tables,
      migrations,
      count: async (table) =>
        Number(
          (await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${quote(table.name)}`)).rows[0]?.n,
        ),
      rows: (table) => pgRows(client, table),
      async close() {
        await client.query('COMMIT').catch(() => undefined);
        await client.end();
      },
    };
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}
