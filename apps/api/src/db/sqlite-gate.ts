import { AsyncLocalStorage } from 'node:async_hooks';
import type { Sequelize } from 'sequelize';

/**
 * Keeps SQLite writers from waiting on each other inside libuv's thread pool.
 *
 * node-sqlite3 runs every statement on libuv's thread pool (4 threads by default), and a statement that waits for
 * SQLite's write lock sleeps in its busy handler *inside* its thread. Sequelize gives each transaction a connection
 * of its own, so a few concurrent transactions (audit entries, one-time tokens, session rotation…) fill the pool
 * with sleepers while the transaction that holds the lock has no thread left for its next statement: the process
 * stalls until the busy timeouts (5 s) expire. Measured before this gate: 60 concurrent sign-in/profile requests
 * took 20 s, and 25 concurrent audit writes never finished.
 *
 * So the decision is taken in JavaScript, where waiting costs nothing: a readers–writer gate in which managed
 * transactions (`sequelize.transaction(callback)`) are the writer and run one at a time, and statements on the
 * shared non-transaction connection are the readers, which may run together but not while a transaction is open
 * or waiting (writer preference, so a stream of statements cannot starve transactions). Statements issued from
 * inside a running transaction's callback pass straight through, so forgetting `{ transaction }` on a read inside
 * one cannot deadlock. Unmanaged transactions are left as they were.
 */
export function gateSqliteWriters(sequelize: Sequelize): void {
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
}
