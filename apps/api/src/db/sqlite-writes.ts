import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteGate } from './sqlite-gate';

/** Synchronous statements on the hot-path connection (`:name` placeholders). */
export interface SyncStatements {
  all<T>(sql: string, params?: Record<string, unknown>): T[];
  run(sql: string, params?: Record<string, unknown>): number;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface Pending {
  work: (sql: SyncStatements) => unknown;
  /** Work of several statements runs under a savepoint, so that its failure undoes only its own statements. */
  several: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface WriteBatcher {
  /** Queues synchronous work for the next commit; resolves with its result once that commit is durable. */
  submit<T>(work: (sql: SyncStatements) => T, options?: { several?: boolean }): Promise<T>;
  /** Commits what is queued, then refuses new work. */
  close(): Promise<void>;
}

/**
 * Group commit for the hot-path writes on SQLite (database.ts `write` and `atomic`).
 *
 * Each commit appends every page it changed to the WAL; the OpenID Connect writes (a code, a session, a token, an
 * audit row…) land on the same few index pages, so committing the writes of all requests handled in one turn of
 * the event loop together writes those pages once instead of once per statement. Work is queued and runs, in
 * order, in one IMMEDIATE transaction scheduled with `setImmediate` (after the turn's I/O callbacks); each
 * caller's promise settles after COMMIT, so nothing is acknowledged before it is stored. A failing statement
 * fails only its caller: SQLite undoes a failed statement by itself, and multi-statement work runs under a
 * savepoint. If the transaction itself is lost (BEGIN or COMMIT fails, or an error makes SQLite roll it back),
every caller in the batch gets the error and nothing of it is kept.
 */
export function createWriteBatcher(
  handle: () => BetterSqlite3.Database | null,
  statements: SyncStatements,
  gate: SqliteGate,
): WriteBatcher {
  let queue: Pending[] = [];
  let scheduled = false;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  /** Runs one item; undoes a failed multi-statement item under its savepoint. */
  function runItem(connection: BetterSqlite3.Database, item: Pending): Outcome {
    if (!item.several) {
      try {
        return { ok: true, value: item.work(statements) };
      } catch (error) {
        return { ok: false, error };
      }
    }
    connection.exec('SAVEPOINT hot_write');
    try {
      const value = item.work(statements);
      connection.exec('RELEASE hot_write');
      return { ok: true, value };
    } catch (error) {
      if (connection.inTransaction) {
        connection.exec('ROLLBACK TO hot_write');
        connection.exec('RELEASE hot_write');
      }
      return { ok: false, error };
    }
  }

  function commit(batch: Pending[]): void {
    const connection = handle();
    if (!connection) throw new Error('database is closed');
    connection.exec('BEGIN IMMEDIATE');
    const outcomes: Outcome[] = [];
    try {
      for (const item of batch) {
        const outcome = runItem(connection, item);
        // Some errors (a full disk, I/O, memory) make SQLite roll the whole transaction back; statements after
        // that would each commit on their own. Then nothing of the batch is kept, and every caller hears so.
        if (!connection.inTransaction) {
          throw outcome.ok ? new Error('the transaction ended inside a write batch') : outcome.error;
        }
        outcomes.push(outcome);
      }
      connection.exec('COMMIT');
    } catch (error) {
      if (connection.inTransaction) connection.exec('ROLLBACK');
      throw error;
    }
    batch.forEach((item, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) item.resolve(outcome.value);
      else item.reject(outcome?.error);
    });
  }

  function flush(): void {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (!batch.length) return;
    running = gate
      .exclusive(() => commit(batch))
      .catch((error: unknown) => {
        for (const item of batch) item.reject(error);
      });
  }

  return {
    submit<T>(work: (sql: SyncStatements) => T, options: { several?: boolean } = {}): Promise<T> {
      if (closed) return Promise.reject(new Error('database is closed'));
      if (gate.insideTransaction()) {
        return Promise.reject(
          new Error('a hot-path write cannot run inside a transaction: use the transaction'),
        );
      }
      return new Promise<T>((resolve, reject) => {
        queue.push({
          work,
          several: options.several ?? false,
          resolve: resolve as (value: unknown) => void,
          reject,
        });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    async close() {
      if (scheduled) flush();
      closed = true;
      await running;
    },
  };
}
