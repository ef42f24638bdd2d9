import path from 'node:path';
import pg from 'pg';
import { QueryTypes, Sequelize } from 'sequelize';
import sqlite3 from 'sqlite3';
import type { Logger } from 'pino';
import { initModels, type Models } from './models';
import { createSqliteReadPool, type ReadPool } from './read-pool';
import { gateSqliteWriters } from './sqlite-gate';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  sequelize: Sequelize;
  dialect: Dialect;
  models: Models;
  /**
   * A plain parameterised SELECT (`:name` placeholders) for hot read paths: a pool of read-only connections on
   * SQLite, the ordinary pool on PostgreSQL. Rows come back raw (see read-pool.ts for type conversion).
   */
  read<T>(sql: string, params: Record<string, unknown>): Promise<T[]>;
  /** Pool figures for /metrics. SQLite has no pool: one connection, plus one per open transaction. */
  poolStats(): { size: number; available: number; waiting: number };
  close(): Promise<void>;
}

const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * sqlite3 driver whose every connection waits for locks instead of failing with SQLITE_BUSY and uses
 * `synchronous=NORMAL`, which is durable under WAL (https://www.sqlite.org/wal.html#performance_considerations).
 * Sequelize opens one connection per transaction, so this has to be per connection, not a one-off PRAGMA.
 */
class SqliteDatabase extends sqlite3.Database {
  constructor(filename: string, mode?: number, callback?: (err: Error | null) => void) {
    super(filename, mode as number, callback);
    this.configure('busyTimeout', SQLITE_BUSY_TIMEOUT_MS);
    this.run('PRAGMA synchronous=NORMAL');
  }
}
const sqliteDriver = { ...sqlite3, Database: SqliteDatabase };

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  logger?: Logger;
  /** PostgreSQL pool size per process. */
  poolMax?: number;
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  const logging = options.logger ? (sql: string) => options.logger?.trace({ sql }, 'sql') : false;
  let sequelize: Sequelize;
  let dialect: Dialect;
  let readPool: ReadPool | null = null;
  if (options.databaseUrl && /^postgres(ql)?:/.test(options.databaseUrl)) {
    dialect = 'postgres';
    // BIGINT counts come back as strings by default; ours fit in a double.
    pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
    sequelize = new Sequelize(options.databaseUrl, {
      dialect: 'postgres',
      dialectModule: pg,
      logging,
      pool: { max: options.poolMax ?? 10, min: 0, idle: 10_000, acquire: 30_000 },
    });
  } else {
    dialect = 'sqlite';
    const storage = options.databaseUrl
      ? options.databaseUrl.replace(/^sqlite:(\/\/)?/, '')
      : path.join(options.dataDir, 'attestly.sqlite');
    sequelize = new Sequelize({ dialect: 'sqlite', dialectModule: sqliteDriver, storage, logging });
    gateSqliteWriters(sequelize);
    await sequelize.query('PRAGMA journal_mode=WAL');
    readPool = createSqliteReadPool(storage, 4, SQLITE_BUSY_TIMEOUT_MS);
  }
  await sequelize.authenticate();
  const models = initModels(sequelize);
  return {
    sequelize,
    dialect,
    models,
    read<T>(sql: string, params: Record<string, unknown>): Promise<T[]> {
      if (readPool) return readPool.all<T>(sql, params);
      return sequelize.query(sql, { replacements: params, type: QueryTypes.SELECT }) as Promise<T[]>;
    },
    poolStats() {
      if (dialect === 'sqlite') return { size: 1, available: 1, waiting: 0 };
      // sequelize-pool's figures; not part of Sequelize's typed API.
      const pool = (
        sequelize.connectionManager as unknown as {
          pool: { size: number; available: number; waiting: number };
        }
      ).pool;
      return { size: pool.size ?? 0, available: pool.available ?? 0, waiting: pool.waiting ?? 0 };
    },
    async close() {
      await readPool?.close();
      await sequelize.close();
    },
  };
}
