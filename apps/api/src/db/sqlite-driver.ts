import BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite driver: better-sqlite3 behind the slice of node-sqlite3's callback API that Sequelize's SQLite dialect
 * calls (`new Database(file, mode, callback)`, `run` and `all` with callbacks, `serialize`, `close`), passed to
 * Sequelize as its `dialectModule`.
 *
 * Why: node-sqlite3 sends every statement through libuv's thread pool and back, and that hop, not SQLite, was most
 * of the cost of the point lookups and small writes the hot paths make (an OpenID Connect flow makes about ten).
 * better-sqlite3 runs a prepared statement synchronously in microseconds. The same process must never link two
 * SQLite libraries against one file (their POSIX locks would not see each other: "How To Corrupt An SQLite
 * Database File" §2.2.2), so every connection — Sequelize's, each transaction's and the hot-path one in
 * database.ts — comes from this one library.
 *
 * Synchronous statements make lock waits dangerous: a statement that waits for a write lock held by a Sequelize
 * transaction would block the event loop that the transaction needs to finish. sqlite-gate.ts rules that out
 * (one transaction at a time, and nothing else writes while it is open); the busy timeout remains for other
 * processes on the same file.
 */

export const OPEN_READONLY = 0x1;
export const OPEN_READWRITE = 0x2;
export const OPEN_CREATE = 0x4;

const SQLITE_BUSY_TIMEOUT_MS = 5000;

type Callback = (this: RunResult, error: Error | null, rows?: unknown[]) => void;
type Params = unknown[] | Record<string, unknown> | undefined;

/** What node-sqlite3 passes as `this` to a `run` callback; Sequelize checks the class name for bulk inserts. */
class Statement {
  constructor(
    readonly lastID: number,
    readonly changes: number,
  ) {}
}
type RunResult = Statement;

/** A value as node-sqlite3 would bind it: booleans as 0/1, dates as epoch milliseconds, undefined as NULL. */
function bindable(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.getTime();
  return value;
}

/** Parameters as better-sqlite3 takes them: positional as an array, named (`$1`, `:id`) by bare name. */
function bindArguments(params: Params): unknown[] {
  if (params === undefined || params === null) return [];
  if (Array.isArray(params)) return params.length ? [params.map(bindable)] : [];
  const named: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) named[key.replace(/^[$:@]/, '')] = bindable(value);
  return [named];
}

/**
 * Errors shaped like node-sqlite3's (`code` SQLITE_BUSY for every busy variant, message prefixed with the primary
 * code), which Sequelize maps to its error classes; extended constraint codes are kept, so a NOT NULL or CHECK
 * violation is a DatabaseError rather than a unique-constraint error with no fields.
 */
function driverError(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
  const primary = code.split('_').slice(0, 2).join('_');
  const shaped = new Error(`${primary}: ${error.message}`) as Error & { code: string };
  shaped.code = primary === 'SQLITE_BUSY' ? primary : code;
  return shaped;
}

interface ConnectionOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
}

/** Opens a connection with the settings every connection needs (the busy timeout, WAL's synchronous=NORMAL). */
export function openConnection(filename: string, options: ConnectionOptions = {}): BetterSqlite3.Database {
  const handle = new BetterSqlite3(filename, {
    readonly: options.readonly ?? false,
    fileMustExist: options.fileMustExist ?? false,
    timeout: SQLITE_BUSY_TIMEOUT_MS,
  });
  // Durable under WAL: https://www.sqlite.org/wal.html#performance_considerations
  if (!options.readonly) handle.pragma('synchronous = NORMAL');
  handle.pragma('foreign_keys = ON');
  return handle;
}

const STATEMENT_CACHE_SIZE = 256;

/** Prepared statements by SQL text, oldest dropped first (Sequelize inlines many values, so texts vary). */
export class StatementCache {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  constructor(private readonly handle: BetterSqlite3.Database) {}

  get(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.handle.prepare(sql);
      if (this.statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.statements.keys().next().value;
        if (oldest !== undefined) this.statements.delete(oldest);
      }
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

export interface SqliteDriver {
  /** Sequelize's `dialectModule`. */
  readonly module: {
    OPEN_READONLY: number;
    OPEN_READWRITE: number;
    OPEN_CREATE: number;
    Database: new (filename: string, mode?: number, callback?: (error: Error | null) => void) => unknown;
  };
  /** Closes the connections kept for reuse (after Sequelize has closed its own). */
  close(): void;
}

/**
 * A driver for one database. Sequelize opens a connection per transaction and closes it at the end; opening a
 * file and reading its schema for each audit batch was a cost of its own, so closed read-write connections are
 * kept (a few) and handed to the next transaction instead.
 */
export function createSqliteDriver(): SqliteDriver {
  const idle: Array<{ filename: string; handle: BetterSqlite3.Database; statements: StatementCache }> = [];
  const MAX_IDLE = 2;

  class Database {
    readonly filename: string;
    private handle: BetterSqlite3.Database | null = null;
    private statements: StatementCache | null = null;

    constructor(
      filename: string,
      mode = OPEN_READWRITE | OPEN_CREATE,
      callback?: (error: Error | null) => void,
    ) {
      this.filename = filename;
      let failure: Error | null = null;
      const readonly = (mode & OPEN_READWRITE) === 0;
      const reused = readonly ? -1 : idle.findIndex((entry) => entry.filename === filename);
      if (reused >= 0) {
        const [entry] = idle.splice(reused, 1);
        this.handle = entry?.handle ?? null;
        this.statements = entry?.statements ?? null;
      } else {
        try {
          this.handle = openConnection(filename, { readonly, fileMustExist: (mode & OPEN_CREATE) === 0 });
          this.statements = new StatementCache(this.handle);
        } catch (error) {
          failure = driverError(error);
        }
      }
      if (callback) process.nextTick(callback, failure);
      else if (failure) throw failure;
    }

    private connection(): { handle: BetterSqlite3.Database; statements: StatementCache } {
      if (!this.handle || !this.statements) throw new Error('SQLITE_MISUSE: Database is closed');
      return { handle: this.handle, statements: this.statements };
    }

    /** node-sqlite3 queues statements per connection; here each runs to completion when called. */
    serialize(callback?: () => void): void {
      callback?.();
    }

    run(sql: string, ...rest: unknown[]): this {
      const callback = typeof rest.at(-1) === 'function' ? (rest.pop() as Callback) : undefined;
      let result = new Statement(0, 0);
      let failure: Error | null = null;
      try {
        const info = this.connection()
          .statements.get(sql)
          .run(...bindArguments(rest[0] as Params));
        result = new Statement(Number(info.lastInsertRowid), info.changes);
      } catch (error) {
        failure = driverError(error);
      }
      this.settle(callback, result, failure);
      return this;
    }

    all(sql: string, ...rest: unknown[]): this {
      const callback = typeof rest.at(-1) === 'function' ? (rest.pop() as Callback) : undefined;
      let rows: unknown[] = [];
      let failure: Error | null = null;
      try {
        const statement = this.connection().statements.get(sql);
        const args = bindArguments(rest[0] as Params);
        if (statement.reader) rows = statement.all(...args);
        else statement.run(...args);
      } catch (error) {
        failure = driverError(error);
      }
      this.settle(callback, new Statement(0, 0), failure, rows);
      return this;
    }

    close(callback?: (error: Error | null) => void): void {
      const { handle, statements } = this;
      this.handle = null;
      this.statements = null;
      let failure: Error | null = null;
      if (handle && statements) {
        try {
          // A transaction left open (an aborted commit) must not travel to the connection's next user.
          if (handle.inTransaction) handle.exec('ROLLBACK');
          if (!handle.readonly && idle.length < MAX_IDLE)
            idle.push({ filename: this.filename, handle, statements });
          else handle.close();
        } catch (error) {
          failure = driverError(error);
          try {
            handle.close();
          } catch {
            // Already failing; the first error is the one to report.
          }
        }
      }
      if (callback) process.nextTick(callback, failure);
    }

    /** Callbacks run on a later tick, as node-sqlite3's do; without one, an error is thrown like an unhandled one. */
    private settle(
      callback: Callback | undefined,
      result: RunResult,
      failure: Error | null,
      rows?: unknown[],
    ) {
      if (callback) process.nextTick(() => callback.call(result, failure, rows));
      else if (failure) throw failure;
    }
  }

  return {
    module: { OPEN_READONLY, OPEN_READWRITE, OPEN_CREATE, Database },
    close() {
      for (const { handle } of idle.splice(0)) handle.close();
    },
  };
}

/**
 * A value for a hand-written statement, stored exactly as Sequelize's SQLite dialect stores it: dates as
 * 'YYYY-MM-DD HH:mm:ss.SSS +00:00' text (so Sequelize reads and compares them as its own), booleans as 0/1.
 */
export function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) {
    const iso = value.toISOString();
    return `${iso.slice(0, 10)} ${iso.slice(11, 23)} +00:00`;
  }
  return bindable(value);
}
