import { AsyncLocalStorage } from 'node:async_hooks';
import type { Sequelize } from 'sequelize';

/**
 * Keeps SQLite writers from waiting on each other.
 *
 * Statements run synchronously (sqlite-driver.ts), and Sequelize gives each transaction a connection of its own.
 * A statement that needed the write lock while a transaction held it would wait in SQLite's busy handler on the
 * event loop — the very thread the transaction needs for its next statement — until the busy timeout (5 s) fails
 * it. (With node-sqlite3 the same wait happened inside libuv's thread pool and starved it: 60 concurrent
 * sign-in/profile requests took 20 s, and 25 concurrent audit writes never finished.)
 *
 * So the decision is taken in JavaScript, where waiting costs nothing: a readers–writer gate in which managed
 * transactions (`sequelize.transaction(callback)`) are the writer and run one at a time, and statements on the
 * shared non-transaction connection are the readers, which may run together but not while a transaction is open
 * or waiting (writer preference, so a stream of statements cannot starve transactions). Statements issued from
 * inside a running transaction's callback pass straight through, so forgetting `{ transaction }` on a read inside
 * one cannot deadlock. Unmanaged transactions are left as they were. `exclusive` runs a synchronous piece of work
 * (the hot-path writes in database.ts) at a moment when no transaction is open.
 */
export interface SqliteGate {
  /** Runs `work` (synchronous) when no managed transaction is open or waiting: at once if none is. */
  exclusive<T>(work: () => T): Promise<T>;
  /** Whether the caller runs inside a managed transaction's callback. */
  insideTransaction(): boolean;
}

export function gateSqliteWriters(sequelize: Sequelize): SqliteGate {
  const insideTransaction = new AsyncLocalStorage<boolean>();
  let statements = 0;
  let writer = false;
  let waitingWriters = 0;
  let wakers: Array<() => void> = [];
  const wakeAll = () => {
    const woken = wakers;
    wakers = [];
    for (const wake of woken) wake();
  };
  const changed = () => new Promise<void>((resolve) => wakers.push(resolve));

  const transaction = sequelize.transaction.bind(sequelize) as (
    options?: unknown,
    callback?: unknown,
  ) => Promise<unknown>;
  const gated = async (options?: unknown, callback?: unknown): Promise<unknown> => {
    if (typeof options === 'function') return gated(undefined, options);
    if (typeof callback !== 'function' || insideTransaction.getStore()) return transaction(options, callback);
    waitingWriters += 1;
    try {
      while (writer || statements > 0) await changed();
    } finally {
      waitingWriters -= 1;
    }
    writer = true;
    try {
      return await insideTransaction.run(true, () => transaction(options, callback));
    } finally {
      writer = false;
      wakeAll();
    }
  };
  sequelize.transaction = gated as Sequelize['transaction'];

  // Sequelize's SQLite connection manager: `uuid` names a transaction's own connection; none means the shared one.
  const manager = sequelize.connectionManager as unknown as {
    getConnection(options?: { uuid?: string }): Promise<{ uuid?: string }>;
    releaseConnection(connection: { uuid?: string }, force?: boolean): void;
  };
  const getConnection = manager.getConnection.bind(manager);
  const releaseConnection = manager.releaseConnection.bind(manager);
  const shared = (options?: { uuid?: string }) => !options?.uuid || options.uuid === 'default';

  manager.getConnection = async (options) => {
    if (!shared(options) || insideTransaction.getStore()) return getConnection(options);
    while (writer || waitingWriters > 0) await changed();
    statements += 1;
    try {
      return await getConnection(options);
    } catch (error) {
      statements -= 1;
      wakeAll();
      throw error;
    }
  };
  // Sequelize calls this after every statement on the shared connection (where it closes nothing) and when a
  // transaction ends (where it closes the transaction's connection).
  manager.releaseConnection = (connection, force) => {
    if (!connection.uuid && !insideTransaction.getStore()) {
      statements -= 1;
      if (statements === 0) wakeAll();
    }
    releaseConnection(connection, force);
  };

  return {
    async exclusive<T>(work: () => T): Promise<T> {
      if (insideTransaction.getStore()) {
        throw new Error('a hot-path write cannot run inside a transaction: use the transaction');
      }
      while (writer || waitingWriters > 0) await changed();
      return work();
    },
    insideTransaction: () => insideTransaction.getStore() === true,
  };
}
