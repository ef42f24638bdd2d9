import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { SequelizeStorage, Umzug } from 'umzug';
import type { Logger } from 'pino';
import type { Database } from './database';
import { migrations } from './migrations';

const MIGRATIONS_TABLE = 'attestly_migrations';
/** Arbitrary constant naming Attestly's migration lock among PostgreSQL advisory locks. */
const PG_LOCK_KEY = 7212540001;
const SQLITE_LOCK_STALE_MS = 10 * 60_000;

function createUmzug(db: Database, logger?: Logger) {
  return new Umzug({
    migrations,
    context: db.sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize: db.sequelize, tableName: MIGRATIONS_TABLE }),
    logger: logger
      ? {
          info: (event) => logger.info(event, 'migration'),
          warn: (event) => logger.warn(event, 'migration'),
          error: (event) => logger.error(event, 'migration'),
          debug: (event) => logger.debug(event, 'migration'),
        }
      : undefined,
  });
}

/**
 * Runs `work` while holding a lock shared by every process on this database, so that replicas starting together
 * migrate once: the first runs the migrations, the others wait and then find nothing pending.
 */
async function withMigrationLock<T>(db: Database, work: () => Promise<T>): Promise<T> {
  if (db.dialect === 'postgres') {
    // A transaction-scoped advisory lock is released even if this process dies mid-migration.
    return db.sequelize.transaction(async (transaction) => {
      await db.sequelize.query(`SELECT pg_advisory_xact_lock(${PG_LOCK_KEY})`, { transaction });
      return work();
    });
  }
  await db.sequelize.query(
    'CREATE TABLE IF NOT EXISTS attestly_migration_lock (id INTEGER PRIMARY KEY CHECK (id = 1), holder TEXT NOT NULL, acquired_at INTEGER NOT NULL)',
  );
  const holder = randomUUID();
  for (;;) {
    await db.sequelize.query('DELETE FROM attestly_migration_lock WHERE acquired_at < :stale', {
      replacements: { stale: Date.now() - SQLITE_LOCK_STALE_MS },
    });
    await db.sequelize.query(
      'INSERT INTO attestly_migration_lock (id, holder, acquired_at) VALUES (1, :holder, :now) ON CONFLICT (id) DO NOTHING',
      { replacements: { holder, now: Date.now() } },
    );
    const [rows] = await db.sequelize.query('SELECT holder FROM attestly_migration_lock WHERE id = 1');
    if ((rows as Array<{ holder: string }>)[0]?.holder === holder) break;
    await sleep(100);
  }
  try {
    return await work();
  } finally {
    await db.sequelize.query('DELETE FROM attestly_migration_lock WHERE holder = :holder', {
      replacements: { holder },
    });
  }
}

export async function migrateUp(db: Database, logger?: Logger): Promise<string[]> {
  return withMigrationLock(db, async () => {
    const applied = await createUmzug(db, logger).up();
    return applied.map((migration) => migration.name);
  });
}

export async function migrateDown(
  db: Database,
  options: { to?: string | 0 } = {},
  logger?: Logger,
): Promise<string[]> {
  return withMigrationLock(db, async () => {
    const reverted = await createUmzug(db, logger).down({ to: options.to ?? 0 });
    return reverted.map((migration) => migration.name);
  });
}

export async function pendingMigrations(db: Database): Promise<string[]> {
  const pending = await createUmzug(db).pending();
  return pending.map((migration) => migration.name);
}

/** Migrations recorded as applied in this database, in the order they ran (including any this release lacks). */
export async function appliedMigrations(db: Database): Promise<string[]> {
  const executed = await createUmzug(db).executed();
  return executed.map((migration) => migration.name);
}

export const knownMigrations = migrations.map((migration) => migration.name);
