import path from 'node:path';
import pg from 'pg';
import { QueryTypes, Sequelize } from 'sequelize';
import type BetterSqlite3 from 'better-sqlite3';
import type { Logger } from 'pino';
import { initModels, type Models } from './models';
import { createSqliteDriver, openConnection, sqliteValue, StatementCache } from './sqlite-driver';
import { gateSqliteWriters } from './sqlite-gate';
import { createWriteBatcher, type SyncStatements, type WriteBatcher } from './sqlite-writes';

export type { SyncStatements } from './sqlite-writes';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  sequelize: Sequelize;
  dialect: Dialect;
  models: Models;
  /**
   * A plain parameterised SELECT (`:name` placeholders) for hot read paths: a prepared statement run at once on
   * SQLite (WAL readers never wait for the writer), the ordinary pool on PostgreSQL. Rows come back raw (see
   * rows.ts for type conversion).
   */
  read<T>(sql: string, params: Record<string, unknown>): Promise<T[]>;
  /**
   * A single parameterised INSERT/UPDATE/DELETE for hot write paths, without Sequelize's query building; resolves
   * with the number of rows changed, once stored. Dates and booleans are stored as the models store them. On
   * SQLite, writes are group-committed (sqlite-writes.ts); must not be called from inside a transaction.
   */
  write(sql: string, params: Record<string, unknown>): Promise<number>;
  /**
   * SQLite only (null on PostgreSQL): runs `work` synchronously and atomically on the hot-path connection, in
   * the next group commit (sqlite-writes.ts). For short, hot batches (the audit log's group commit).
   */
  atomic: (<T>(work: (sql: SyncStatements) => T) => Promise<T>) | null;
  /** Pool figures for /metrics. SQLite has no pool: Sequelize's connection, the hot-path one, one per open transaction. */
  poolStats(): { size: number; available: number; waiting: number };
  close(): Promise<void>;
}

const bindAll = (params: Record<string, unknown> = {}) => {
  const bound: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) bound[key] = sqliteValue(value);
  return bound;
};

/** The hot-path connection's statements (one connection; everything on it is synchronous). */
function syncStatements(handle: BetterSqlite3.Database): SyncStatements {
  const cache = new StatementCache(handle);
  return {
    all: <T>(sql: string, params?: Record<string, unknown>) => cache.get(sql).all(bindAll(params)) as T[],
    run: (sql: string, params?: Record<string, unknown>) => cache.get(sql).run(bindAll(params)).changes,
  };
}

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
  let hot: { handle: BetterSqlite3.Database; statements: SyncStatements; writes: WriteBatcher } | null = null;
  let driver: ReturnType<typeof createSqliteDriver> | null = null;
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
    driver = createSqliteDriver();
    sequelize = new Sequelize({ dialect: 'sqlite', dialectModule: driver.module, storage, logging });
    const gate = gateSqliteWriters(sequelize);
    await sequelize.query('PRAGMA journal_mode=WAL');
    const handle = openConnection(storage);
    const statements = syncStatements(handle);
    hot = { handle, statements, writes: createWriteBatcher(() => hot?.handle ?? null, statements, gate) };
  }
  await sequelize.authenticate();
  const models = initModels(sequelize);
  const closed = () => Promise.reject(new Error('database is closed'));
  return {
    sequelize,
    dialect,
    models,
    read<T>(sql: string, params: Record<string, unknown>): Promise<T[]> {
      if (!hot) {
        if (dialect === 'sqlite') return closed();
        return sequelize.query(sql, { replacements: params, type: QueryTypes.SELECT }) as Promise<T[]>;
      }
      try {
        return Promise.resolve(hot.statements.all<T>(sql, params));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    write(sql: string, params: Record<string, unknown>): Promise<number> {
      if (dialect === 'postgres') {
        return sequelize
          .query(sql, { replacements: params, type: QueryTypes.BULKUPDATE })
          .then((changed) => Number(changed));
      }
      if (!hot) return closed();
      return hot.writes.submit((statements) => statements.run(sql, params));
    },
    atomic:
      dialect === 'sqlite'
        ? <T>(work: (sql: SyncStatements) => T): Promise<T> =>
            hot ? hot.writes.submit(work, { several: true }) : closed()
        : null,
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
      await hot?.writes.close();
      const connection = hot;
      hot = null;
      connection?.handle.close();
      await sequelize.close();
      driver?.close();
    },
  };
}
