import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { QueryTypes, Sequelize } from 'sequelize';
import type BetterSqlite3 from 'better-sqlite3';
import type { Logger } from 'pino';
import { initModels, type Models } from './models';
import { createSqliteDriver, openConnection, sqliteValue, StatementCache } from './sqlite-driver';
import { gateSqliteWriters } from './sqlite-gate';
import { privateDatabaseFile } from './private-file';
import { createWriteBatcher, type SyncStatements, type WriteBatcher } from './sqlite-writes';

export type { SyncStatements } from './sqlite-writes';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  sequelize: Sequelize;
  dialect: Dialect;
  models: Models;
  /**
   * A plain parameterised SELECT (`:name` placeholders) for hot read paths: a prepared statement run at once on
   * SQLite (WAL readers never wait for the writer), a named prepared statement on the pool on PostgreSQL
   * (preparedStatements). Rows come back raw (see rows.ts for type conversion).
   */
  read<T>(sql: string, params: Record<string, unknown>): Promise<T[]>;
  /**
   * A single parameterised INSERT/UPDATE/DELETE for hot write paths, without Sequelize's query building; resolves
   * with the number of rows changed, once stored. Dates and booleans are stored as the models store them. On
   * SQLite, writes are group-committed (sqlite-writes.ts), on PostgreSQL prepared (preparedStatements); must not be
   * called from inside a transaction.
   */
  write(sql: string, params: Record<string, unknown>): Promise<number>;
  /**
   * SQLite only (null on PostgreSQL): runs `work` synchronously and atomically on the hot-path connection, in
   * the next group commit (sqlite-writes.ts). For short, hot batches (the audit log's group commit).
   */
  atomic: (<T>(work: (sql: SyncStatements) => T) => Promise<T>) | null;
  /**
   * PostgreSQL only (null on SQLite): runs several statements, separated by semicolons and with their values inlined
   * (`pgLiteral`), in ONE round trip. PostgreSQL runs the statements of one such message as one transaction (all or
   * none; on a failure nothing is left open), each with its own snapshot under READ COMMITTED, so a statement sees
   * what was committed before a lock taken by an earlier one was granted. For short, hot multi-statement work that
   * would otherwise cost BEGIN, each statement and COMMIT as round trips of their own (the audit log's append).
   */
  script: ((sql: string) => Promise<void>) | null;
  /** Pool figures for /metrics. SQLite has no pool: Sequelize's connection, the hot-path one, one per open transaction. */
  poolStats(): { size: number; available: number; waiting: number };
  /**
   * Round trips to the database so far. PostgreSQL: messages sent to the server and answered (every statement, BEGIN
   * and COMMIT included, one `script` one message). SQLite, which runs in this process and has no round trips: calls
   * into it (a `read` or `write` statement, an `atomic` batch, a Sequelize query), what the same work would send to a
   * server. For tests and benchmarks that hold the hot paths to their count (`attestly_db_round_trips_total`).
   */
  roundTrips(): number;
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

/** A `:name` statement rewritten for PostgreSQL's extended protocol: `$n` placeholders, named once per SQL text. */
interface PgStatement {
  name: string;
  text: string;
  params: string[];
}

/**
 * Rewrites `:name` placeholders as `$1…$n` (a name used twice gets one number), leaving `::type` casts and quoted
 * strings and identifiers alone; null when the SQL has something this does not handle (then Sequelize runs it).
 */
export function toPgStatement(sql: string, name: string): PgStatement | null {
  const params: string[] = [];
  let text = '';
  for (let i = 0; i < sql.length; i += 1) {
    const char = sql[i] as string;
    if (char === "'" || char === '"') {
      const close = sql.indexOf(char, i + 1);
      if (close < 0) return null;
      text += sql.slice(i, close + 1);
      i = close;
      continue;
    }
    if (char === '$' || (char === '-' && sql[i + 1] === '-') || (char === '/' && sql[i + 1] === '*'))
      return null;
    if (char === ':' && sql[i + 1] === ':') {
      text += '::';
      i += 1;
      continue;
    }
    const placeholder = char === ':' ? /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1)) : null;
    if (placeholder) {
      let index = params.indexOf(placeholder[0]);
      if (index < 0) index = params.push(placeholder[0]) - 1;
      text += `$${index + 1}`;
      i += placeholder[0].length;
      continue;
    }
    text += char;
  }
  return { name, text, params };
}

/** A value as an SQL literal for `Database.script` (standard-conforming strings; pg's escaping). */
export function pgLiteral(value: string | number | Date | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  return pg.escapeLiteral(value instanceof Date ? value.toISOString() : value);
}

/** A parameter as a prepared statement takes it, or undefined when only Sequelize's inlining handles it (lists). */
function pgValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  // Sequelize inlines dates as UTC text; ISO text is the same instant for timestamptz and the same wall time otherwise.
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return undefined;
}

interface PgClient {
  query(config: {
    name: string;
    text: string;
    values: unknown[];
  }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/** What a statement run through `prepared` gives: its rows and changed-row count, or `null` for "ask Sequelize". */
type PgOutcome = { rows: unknown[]; rowCount: number } | null;

/**
 * PostgreSQL's hot statements as named prepared statements on the pool's connections (parsed and planned once per
 * connection, instead of Sequelize inlining the values into new SQL text each time and building its query, hooks
 * and results around it). A statement PostgreSQL cannot prepare as written (an untyped parameter), or one with a
 * list parameter, goes through Sequelize as before.
 *
 * So does a search (`LIKE`): the best plan depends on the pattern, and after five executions PostgreSQL may switch a
 * prepared statement to a generic plan that guesses the pattern rare. Measured on the admin benchmark's data: counting
 * the cases of accounts matching `%example%` (all 300,000) took 181 ms on the generic plan (a trigram index walk and
 * 100,000 lookups) against 109 ms planned for the value (a parallel hash join).
 *
 * A write that PostgreSQL refuses (a constraint, a bad value) runs again through Sequelize, which reports the same
 * refusal as its own error classes (`UniqueConstraintError`…) that callers test for: one statement in autocommit
 * either applies whole or not at all, so the refused one changed nothing. A broken connection is not retried (the
 * statement may have been applied): its error goes to the caller.
 */
function preparedStatements(sequelize: Sequelize) {
  const statements = new Map<string, PgStatement | null>();
  const MAX_STATEMENTS = 500;
  const manager = sequelize.connectionManager as unknown as {
    getConnection(options: { type: 'read' | 'write' }): Promise<PgClient>;
    releaseConnection(connection: PgClient): void;
    destroyConnection(connection: PgClient): Promise<void>;
  };

  /** Runs `sql` prepared, or resolves null when Sequelize must run it (see above). */
  async function prepared(
    sql: string,
    params: Record<string, unknown>,
    kind: 'read' | 'write',
  ): Promise<PgOutcome> {
    let statement = statements.get(sql);
    if (statement === undefined) {
      if (statements.size >= MAX_STATEMENTS) return null;
      statement = /\bLIKE\b/i.test(sql) ? null : toPgStatement(sql, `attestly_${statements.size + 1}`);
      statements.set(sql, statement);
    }
    if (!statement) return null;
    const values: unknown[] = [];
    for (const param of statement.params) {
      if (!(param in params)) return null; // Sequelize reports the missing name
      const value = pgValue(params[param]);
      if (value === undefined) return null;
      values.push(value);
    }
    const connection = await manager.getConnection({ type: kind });
    let result: { rows: unknown[]; rowCount: number | null };
    try {
      result = await connection.query({ name: statement.name, text: statement.text, values });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
        manager.releaseConnection(connection);
        // 42P18 and kin: PostgreSQL could not type a parameter without Sequelize's literal; never prepare it again.
        if (code.startsWith('42')) {
          statements.set(sql, null);
          return null;
        }
        if (kind === 'write') return null;
        throw error;
      }
      await manager.destroyConnection(connection).catch(() => undefined);
      throw error;
    }
    manager.releaseConnection(connection);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  }

  return {
    async script(sql: string): Promise<void> {
      const connection = await manager.getConnection({ type: 'write' });
      try {
        // A string without values: pg sends it as one simple-protocol message, whatever the number of statements.
        await (connection as unknown as { query(text: string): Promise<unknown> }).query(sql);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        // PostgreSQL refused a statement: the message's implicit transaction is rolled back, the connection is fine.
        if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) manager.releaseConnection(connection);
        else await manager.destroyConnection(connection).catch(() => undefined);
        throw error;
      }
      manager.releaseConnection(connection);
    },
    async read<T>(sql: string, params: Record<string, unknown>): Promise<T[]> {
      const outcome = await prepared(sql, params, 'read');
      if (outcome) return outcome.rows as T[];
      return sequelize.query(sql, { replacements: params, type: QueryTypes.SELECT }) as Promise<T[]>;
    },
    async write(sql: string, params: Record<string, unknown>): Promise<number> {
      const outcome = await prepared(sql, params, 'write');
      if (outcome) return outcome.rowCount;
      const changed = await sequelize.query(sql, { replacements: params, type: QueryTypes.BULKUPDATE });
      return Number(changed);
    },
  };
}

/**
 * The pg module as Sequelize gets it, with its connections counting their round trips (`Database.roundTrips`):
 * every statement goes through `Client.query` (Sequelize's and the prepared ones alike), and pg sends one query's
 * messages together and waits for its answer before sending the next.
 */
function countingPg(): { module: typeof pg; roundTrips(): number } {
  let count = 0;
  class CountingClient extends pg.Client {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's overloads, passed through unchanged
    override query(...args: any[]): any {
      count += 1;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return (super.query as (...all: any[]) => any)(...args);
    }
  }
  return { module: { ...pg, Client: CountingClient } as typeof pg, roundTrips: () => count };
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  logger?: Logger;
  /** PostgreSQL pool size per process. */
  poolMax?: number;
}

/**
 * PostgreSQL keeps a prepared statement's plan until its table is analysed, and autovacuum is what analyses tables as
 * they grow: without it the hot statements keep the plans made when the tables were empty (an authorization code's
 * lookup read every code issued so far: docs/benchmarks.md, "Plans made on empty tables"). The server says so once,
 * at start (server.ts); nothing to say on SQLite.
 */
export async function warnWithoutAutovacuum(db: Pick<Database, 'dialect' | 'sequelize'>, logger: Logger) {
  if (db.dialect !== 'postgres') return;
  const [row] = await db.sequelize.query<{ on: boolean }>(
    "SELECT current_setting('autovacuum') = 'on' AS on",
    {
      type: QueryTypes.SELECT,
    },
  );
  if (row && !row.on)
    logger.warn(
      'PostgreSQL runs with autovacuum off: tables are never analysed, so query plans do not follow their growth and the hot paths slow down as they fill; turn autovacuum on (the default)',
    );
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  const logging = options.logger ? (sql: string) => options.logger?.trace({ sql }, 'sql') : false;
  let sequelize: Sequelize;
  let dialect: Dialect;
  let hot: { handle: BetterSqlite3.Database; statements: SyncStatements; writes: WriteBatcher } | null = null;
  let driver: ReturnType<typeof createSqliteDriver> | null = null;
  let pgStatements: ReturnType<typeof preparedStatements> | null = null;
  let roundTrips = () => 0;
  let countSqliteCall = () => {};
  if (options.databaseUrl && /^postgres(ql)?:/.test(options.databaseUrl)) {
    dialect = 'postgres';
    // BIGINT counts come back as strings by default; ours fit in a double.
    pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
    const counting = countingPg();
    roundTrips = counting.roundTrips;
    sequelize = new Sequelize(options.databaseUrl, {
      dialect: 'postgres',
      dialectModule: counting.module,
      logging,
      pool: { max: options.poolMax ?? 10, min: 0, idle: 10_000, acquire: 30_000 },
    });
    pgStatements = preparedStatements(sequelize);
  } else {
    dialect = 'sqlite';
    const storage = options.databaseUrl
      ? options.databaseUrl.replace(/^sqlite:(\/\/)?/, '')
      : path.join(options.dataDir, 'attestly.sqlite');
    try {
      mkdirSync(path.dirname(storage), { recursive: true });
      privateDatabaseFile(storage);
    } catch {
      // Not creatable here: Sequelize's own attempt below reports why, as a connection error.
    }
    driver = createSqliteDriver();
    sequelize = new Sequelize({ dialect: 'sqlite', dialectModule: driver.module, storage, logging });
    let calls = 0;
    sequelize.addHook('beforeQuery', () => {
      calls += 1;
    });
    countSqliteCall = () => {
      calls += 1;
    };
    roundTrips = () => calls;
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
        if (dialect === 'sqlite' || !pgStatements) return closed();
        return pgStatements.read<T>(sql, params);
      }
      countSqliteCall();
      try {
        return Promise.resolve(hot.statements.all<T>(sql, params));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    write(sql: string, params: Record<string, unknown>): Promise<number> {
      if (dialect === 'postgres') return pgStatements ? pgStatements.write(sql, params) : closed();
      if (!hot) return closed();
      countSqliteCall();
      return hot.writes.submit((statements) => statements.run(sql, params));
    },
    atomic:
      dialect === 'sqlite'
        ? <T>(work: (sql: SyncStatements) => T): Promise<T> => {
            if (!hot) return closed();
            countSqliteCall();
            return hot.writes.submit(work, { several: true });
          }
        : null,
    script:
      dialect === 'postgres'
        ? (sql: string): Promise<void> => (pgStatements ? pgStatements.script(sql) : closed())
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
    roundTrips: () => roundTrips(),
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
