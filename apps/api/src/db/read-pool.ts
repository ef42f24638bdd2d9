import sqlite3 from 'sqlite3';

/**
 * Read-only connections for the hot authentication path on SQLite. Sequelize runs every non-transaction query on
 * one SQLite connection, one after another; under load the event loop then sits idle waiting for that queue.
 * WAL lets readers run in parallel with each other and with the writer, so a few read-only connections (each
 * query runs on libuv's thread pool) multiply throughput. Statements are prepared once per connection.
 */
export interface ReadPool {
  all<T>(sql: string, params: Record<string, unknown>): Promise<T[]>;
  close(): Promise<void>;
}

interface Connection {
  db: sqlite3.Database;
  statements: Map<string, sqlite3.Statement>;
  busy: number;
}

export function createSqliteReadPool(storage: string, size: number, busyTimeoutMs: number): ReadPool {
  const connections: Connection[] = Array.from({ length: size }, () => {
    const db = new sqlite3.Database(storage, sqlite3.OPEN_READONLY);
    db.configure('busyTimeout', busyTimeoutMs);
    return { db, statements: new Map(), busy: 0 };
  });
  let closed = false;
  return {
    all<T>(sql: string, params: Record<string, unknown>): Promise<T[]> {
      // Work that finishes after shutdown (e.g. a post-response audit step) gets a rejection it can handle;
      // preparing on a closed handle would instead emit an 'error' event nobody listens to and crash the process.
      if (closed) return Promise.reject(new Error('database is closed'));
      const connection = connections.reduce((least, candidate) =>
        candidate.busy < least.busy ? candidate : least,
      );
      let statement = connection.statements.get(sql);
      if (!statement) {
        statement = connection.db.prepare(sql);
        connection.statements.set(sql, statement);
      }
      const bound = Object.fromEntries(Object.entries(params).map(([key, value]) => [`:${key}`, value]));
      connection.busy += 1;
      return new Promise<T[]>((resolve, reject) => {
        (statement as sqlite3.Statement).all(bound, (error: Error | null, rows: T[]) => {
          connection.busy -= 1;
          if (error) reject(error);
          else resolve(rows);
        });
      });
    },
    async close() {
      closed = true;
      await Promise.all(
        connections.map(
          (connection) =>
            new Promise<void>((resolve) => {
              for (const statement of connection.statements.values()) statement.finalize();
              connection.db.close(() => resolve());
            }),
        ),
      );
    },
  };
}

/** SQLite returns dates as text and booleans as 0/1; PostgreSQL returns Date and boolean. */
export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value : new Date(value as string);
}

export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}

/**
 * Converts a raw row to the attribute types a Sequelize model declares (DATE → Date, BOOLEAN → boolean), so rows
 * read through `Database.read` can be presented like model instances.
 */
export function fromRow<T>(
  model: { getAttributes(): Record<string, { type: unknown }> },
  row: Record<string, unknown>,
): T {
  const out: Record<string, unknown> = { ...row };
  for (const [name, attribute] of Object.entries(model.getAttributes())) {
    const key = (attribute.type as { key?: string }).key;
    if (!(name in out)) continue;
    if (key === 'DATE') out[name] = toDate(out[name]);
    else if (key === 'BOOLEAN') out[name] = toBool(out[name]);
  }
  return out as T;
}
