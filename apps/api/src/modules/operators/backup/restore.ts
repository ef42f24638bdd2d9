import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { SequelizeStorage, Umzug } from 'umzug';
import type { Config } from '../../../config';
import { createDatabase } from '../../../db/database';
import { knownMigrations, migrateDown, migrateUp } from '../../../db/migrator';
import { migrations } from '../../../db/migrations/index';
import { privateDatabaseFile, SQLITE_COMPANIONS } from '../../../db/private-file';
import { ArchiveError, type ArchiveSecret } from './archive';
import { locateDatabase, pgMigrations, pgRows, sqliteRows, type DatabaseLocation } from './sources';
import { decodeValue, pgTables, sqliteTables, type TableInfo } from './tables';
import { suspendPgTriggers, suspendSqliteTriggers, type SuspendedTriggers } from './triggers';
import {
  masterKeyId,
  readBackup,
  tableLines,
  type BackupHeader,
  type BackupManifest,
  type OnProgress,
  type RestoreResult,
} from './service';

/**
 * Restores an archive into an empty database (or, with `force`, replaces a populated one): SQLite is rebuilt in a
 * new file that replaces the old one only once complete and checked; PostgreSQL is loaded in one transaction that
 * commits only once every table's count and checksum match the archive. See restore.ts.
 */
export async function restoreBackup(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'masterKey'>,
  options: { file: string; secret: ArchiveSecret; force?: boolean; onProgress?: OnProgress },
): Promise<RestoreResult> {
  const location = locateDatabase(config.databaseUrl, config.dataDir);
  if (location.dialect === 'sqlite') mkdirSync(path.dirname(location.file), { recursive: true, mode: 0o700 });
  return restoreInto(location, config.masterKey, options);
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Brings an empty database's schema to exactly the archive's migrations (later ones run after the load). */
async function migrateTo(databaseUrl: string, header: BackupHeader): Promise<void> {
  if (!header.schema_version) return;
  const db = await createDatabase({ databaseUrl, dataDir: path.dirname(databaseUrl) });
  try {
    const umzug = new Umzug({
      migrations,
      context: db.sequelize.getQueryInterface(),
      storage: new SequelizeStorage({ sequelize: db.sequelize, tableName: 'attestly_migrations' }),
      logger: undefined,
    });
    await umzug.up({ to: header.schema_version });
  } finally {
    await db.close();
  }
}

async function migrateRest(databaseUrl: string): Promise<string[]> {
  const db = await createDatabase({ databaseUrl, dataDir: path.dirname(databaseUrl) });
  try {
    return await migrateUp(db);
  } finally {
    await db.close();
  }
}

/**
 * What differs between restoring into SQLite and into PostgreSQL. Both load inside one transaction with the
 * database's triggers suspended (triggers.ts: the archive's rows, derived tables included, are loaded as they are),
 * reinstate them once every table is loaded, then check and commit.
 */
interface Sink {
  prepare(header: BackupHeader): Promise<void>;
  load(table: string, rows: AsyncGenerator<string>): Promise<void>;
  /** After the last table: triggers back in place (and, on PostgreSQL, serials past the restored ids). */
  finishLoad(): Promise<void>;
  /** Re-reads every restored table and compares counts and SHA-256 with the archive's manifest. */
  check(manifest: BackupManifest): Promise<void>;
  commit(): Promise<string[]>;
  abort(): Promise<void>;
}

function targetTable(tables: TableInfo[], name: string): TableInfo {
  const table = tables.find((candidate) => candidate.name === name);
  if (!table) throw new ArchiveError(`the archive holds table ${name}, which this schema does not have`);
  return table;
}

async function compare(
  manifest: BackupManifest,
  tables: TableInfo[],
  rows: (table: TableInfo) => AsyncIterable<Record<string, unknown>>,
  onProgress?: OnProgress,
): Promise<void> {
  const total = manifest.files.reduce((sum, file) => sum + file.rows, 0);
  let done = 0;
  for (const file of manifest.files) {
    const table = targetTable(tables, file.table);
    const hash = createHash('sha256');
    let count = 0;
    for await (const line of tableLines(table, rows(table))) {
      hash.update(line);
      count += 1;
      done += 1;
      if (done % 5000 === 0) onProgress?.({ phase: 'check', table: table.name, done, total });
    }
    if (count !== file.rows)
      throw new ArchiveError(
        `restored ${table.name} has ${count} rows, the archive ${file.rows}; nothing was kept`,
      );
    if (hash.digest('hex') !== file.sha256)
      throw new ArchiveError(
        `restored ${table.name} does not match the archive's checksum; nothing was kept`,
      );
  }
  // A table the archive does not hold must have stayed empty (nothing derived rows into it during the load).
  for (const table of tables) {
    if (manifest.files.some((file) => file.table === table.name)) continue;
    for await (const _row of rows(table)) {
      void _row;
      throw new ArchiveError(`restored ${table.name} holds rows the archive does not; nothing was kept`);
    }
  }
  onProgress?.({ phase: 'check', done: total, total });
}

async function dataRows(count: (table: TableInfo) => Promise<number>, tables: TableInfo[]): Promise<number> {
  let rows = 0;
  for (const table of tables) rows += await count(table);
  return rows;
}

const notEmpty = (where: string) =>
  new ArchiveError(
    `${where} already holds data; restore into an empty database, or pass --force to replace it`,
  );

function sqliteSink(file: string, force: boolean, onProgress?: OnProgress): Sink {
  if (existsSync(file) && !force) {
    const existing = new BetterSqlite3(file, { readonly: true });
    try {
      if (sqliteDataRows(existing) > 0) throw notEmpty(file);
    } finally {
      existing.close();
    }
  }
  const temporary = `${file}.restoring-${randomBytes(4).toString('hex')}`;
  let handle: BetterSqlite3.Database | null = null;
  let tables: TableInfo[] = [];
  let triggers: SuspendedTriggers | null = null;
  let total = 0;
  let done = 0;
  const remove = () =>
    ['', ...SQLITE_COMPANIONS].forEach((suffix) => rmSync(temporary + suffix, { force: true }));
  return {
    async prepare(header) {
      total = header.tables.reduce((sum, table) => sum + table.rows, 0);
      privateDatabaseFile(temporary);
      await migrateTo(`sqlite:${temporary}`, header);
      handle = new BetterSqlite3(temporary);
      handle.pragma('foreign_keys = OFF');
      handle.exec('BEGIN');
      tables = sqliteTables(handle);
      triggers = suspendSqliteTriggers(handle);
    },
    async load(name, lines) {
      const table = targetTable(tables, name);
      const columns = table.columns;
      const insert = (handle as BetterSqlite3.Database).prepare(
        `INSERT INTO ${quote(name)} (${columns.map((column) => quote(column.name)).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      for await (const line of lines) {
        const row = JSON.parse(line) as Record<string, unknown>;
        insert.run(columns.map((column) => decodeValue('sqlite', column.kind, row[column.name])));
        if (++done % 5000 === 0) onProgress?.({ phase: 'restore', table: name, done, total });
      }
    },
    async finishLoad() {
      await triggers?.reinstate();
    },
    async check(manifest) {
      const open = handle as BetterSqlite3.Database;
      await compare(manifest, tables, (table) => sqliteRows(open, table), onProgress);
    },
    async commit() {
      (handle as BetterSqlite3.Database).exec('COMMIT');
      (handle as BetterSqlite3.Database).close();
      handle = null;
      const migratedAfter = await migrateRest(`sqlite:${temporary}`);
      // Swap in: the old database (and its WAL, which must not be replayed onto the new file) is kept aside.
      if (existsSync(file)) {
        const aside = `${file}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        renameSync(file, aside);
        for (const suffix of ['-wal', '-shm'])
          if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
      }
      renameSync(temporary, file);
      return migratedAfter;
    },
    async abort() {
      try {
        handle?.close();
      } catch {
        // Already closed.
      }
      handle = null;
      remove();
    },
  };
}

function sqliteDataRows(handle: BetterSqlite3.Database): number {
  let rows = 0;
  for (const table of sqliteTables(handle)) {
    rows += (handle.prepare(`SELECT COUNT(*) AS n FROM ${quote(table.name)}`).get() as { n: number }).n;
  }
  return rows;
}

async function pgSink(url: string, force: boolean, onProgress?: OnProgress): Promise<Sink> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let tables = await pgTables(client);
  const count = async (table: TableInfo) =>
    Number((await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${quote(table.name)}`)).rows[0]?.n);
  const populated = (await dataRows(count, tables)) > 0;
  if (populated && !force) {
    await client.end();
    throw notEmpty('the target PostgreSQL database');
  }
  const applied = await pgMigrations(client);
  let migratedHere = false;
  let inTransaction = false;
  let triggers: SuspendedTriggers | null = null;
  let total = 0;
  let done = 0;
  return {
    async prepare(header) {
      total = header.tables.reduce((sum, table) => sum + table.rows, 0);
      if (applied.length === 0) {
        migratedHere = true;
        await migrateTo(url, header);
      } else if (
        JSON.stringify(knownMigrations.filter((name) => applied.includes(name))) !==
        JSON.stringify(header.migrations)
      ) {
        throw new ArchiveError(
          "the target database's schema differs from the archive's; restore into an empty database",
        );
      }
      tables = await pgTables(client);
      await client.query('BEGIN');
      inTransaction = true;
      triggers = await suspendPgTriggers(client);
      if (populated)
        for (const table of [...tables].reverse()) await client.query(`DELETE FROM ${quote(table.name)}`);
    },
    async load(name, lines) {
      const table = targetTable(tables, name);
      const columns = table.columns;
      const perBatch = Math.max(1, Math.min(1000, Math.floor(60_000 / columns.length)));
      const head = `INSERT INTO ${quote(name)} (${columns.map((column) => quote(column.name)).join(', ')}) VALUES `;
      let values: unknown[] = [];
      let rows = 0;
      // One batch in flight while the next is parsed: PostgreSQL inserts (its own process, the other core) while
      // this one decodes, instead of each waiting for the other. Two batches in memory at most.
      let inFlight: Promise<unknown> = Promise.resolve();
      const flush = async () => {
        if (!rows) return;
        const tuples: string[] = [];
        for (let row = 0; row < rows; row += 1) {
          tuples.push(`(${columns.map((_, index) => `$${row * columns.length + index + 1}`).join(', ')})`);
        }
        await inFlight;
        inFlight = client.query(head + tuples.join(', '), values);
        inFlight.catch(() => undefined); // awaited below or by the next flush; never an unhandled rejection
        values = [];
        rows = 0;
      };
      for await (const line of lines) {
        const row = JSON.parse(line) as Record<string, unknown>;
        for (const column of columns) values.push(decodeValue('postgres', column.kind, row[column.name]));
        rows += 1;
        if (rows >= perBatch) await flush();
        if (++done % 5000 === 0) onProgress?.({ phase: 'restore', table: name, done, total });
      }
      await flush();
      await inFlight;
    },
    async finishLoad() {
      await triggers?.reinstate();
      // Serial columns continue after the restored ids.
      const { rows: serials } = await client.query<{ table_name: string; column_name: string }>(
        `SELECT table_name, column_name FROM information_schema.columns
          WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'`,
      );
      for (const serial of serials) {
        const t = quote(serial.table_name);
        const c = quote(serial.column_name);
        await client.query(
          `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT MAX(${c}) FROM ${t}), 1), (SELECT MAX(${c}) FROM ${t}) IS NOT NULL)`,
          [t, serial.column_name],
        );
      }
    },
    async check(manifest) {
      await compare(manifest, tables, (table) => pgRows(client, table), onProgress);
    },
    async commit() {
      await client.query('COMMIT');
      inTransaction = false;
      await client.end();
      return migrateRest(url);
    },
    async abort() {
      if (inTransaction) await client.query('ROLLBACK').catch(() => undefined);
      await client.end().catch(() => undefined);
      if (migratedHere) {
        // Leave the database as empty as it was found.
        const db = await createDatabase({ databaseUrl: url, dataDir: '.' });
        await migrateDown(db, { to: 0 }).catch(() => undefined);
        await db.close();
      }
    },
  };
}

export async function restoreInto(
  location: DatabaseLocation,
  masterKey: Buffer,
  options: { file: string; secret: ArchiveSecret; force?: boolean; onProgress?: OnProgress },
): Promise<RestoreResult> {
  const sink =
    location.dialect === 'sqlite'
      ? sqliteSink(location.file, !!options.force, options.onProgress)
      : await pgSink(location.url, !!options.force, options.onProgress);
  try {
    const manifest = await readBackup(options.file, options.secret, {
      async onHeader(header) {
        const unknown = header.migrations.filter((name) => !knownMigrations.includes(name));
        if (unknown.length > 0)
          throw new ArchiveError(
            `the archive comes from a newer schema (${unknown.at(-1)}); upgrade Attestly before restoring it`,
          );
        if (header.master_key_id !== masterKeyId(masterKey))
          throw new ArchiveError(
            'the archive was made with a different master key: set ATTESTLY_MASTER_KEY (or put its master.key in the data directory) to the original one',
          );
        await sink.prepare(header);
      },
      onFile: ({ file, lines }) => sink.load(file.table, lines),
    });
    await sink.finishLoad();
    await sink.check(manifest);
    const migratedAfter = await sink.commit();
    return {
      manifest,
      target: {
        dialect: location.dialect,
        location: location.dialect === 'sqlite' ? location.file : new URL(location.url).pathname.slice(1),
      },
      tables: manifest.files.map((file) => ({ name: file.table, rows: file.rows })),
      migratedAfter,
    };
  } catch (error) {
    await sink.abort();
    throw error;
  }
}
