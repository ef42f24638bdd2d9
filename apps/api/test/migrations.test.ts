import { afterEach, describe, expect, it } from 'vitest';
import { UniqueConstraintError } from 'sequelize';
import { createDatabase, type Database } from '../src/db/database';
import { knownMigrations, migrateDown, migrateUp, pendingMigrations } from '../src/db/migrator';
import { createTestDatabase, onPostgres } from './helpers';

/** Bookkeeping tables the migrator itself keeps; everything else belongs to a migration. */
const BOOKKEEPING = ['attestly_migrations', 'attestly_migration_lock'];

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function freshDatabase() {
  const target = await createTestDatabase();
  cleanups.push(() => target.drop());
  const open = async (): Promise<Database> => {
    const db = await createDatabase({ databaseUrl: target.url, dataDir: target.dataDir });
    cleanups.push(() => db.close());
    return db;
  };
  return { open };
}

async function tables(db: Database): Promise<string[]> {
  const names = (await db.sequelize.getQueryInterface().showAllTables()) as Array<
    string | { tableName: string }
  >;
  return names.map((name) => (typeof name === 'string' ? name : name.tableName)).sort();
}

describe(`migrations on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('apply every migration in order, then revert every one, then apply again', async () => {
    const db = await (await freshDatabase()).open();
    expect(await pendingMigrations(db)).toEqual(knownMigrations);

    expect(await migrateUp(db)).toEqual(knownMigrations);
    expect(await pendingMigrations(db)).toEqual([]);
    const created = (await tables(db)).filter((name) => !BOOKKEEPING.includes(name));
    for (const table of [
      'users',
      'sessions',
      'one_time_tokens',
      'user_photos',
      'rate_limits',
      'audit_logs',
      'newsletter_subscribers',
    ]) {
      expect(created).toContain(table);
    }
    expect(await migrateUp(db)).toEqual([]);

    expect(await migrateDown(db)).toEqual([...knownMigrations].reverse());
    expect((await tables(db)).filter((name) => !BOOKKEEPING.includes(name))).toEqual([]);
    expect(await pendingMigrations(db)).toEqual(knownMigrations);

    expect(await migrateUp(db)).toEqual(knownMigrations);
    expect((await tables(db)).filter((name) => !BOOKKEEPING.includes(name))).toEqual(created);
    const now = new Date();
    const user = await db.models.User.create({
      email: 'again@example.com',
      password_hash: 'scrypt$x',
      full_name: 'Again',
      created_at: now,
      updated_at: now,
    });
    expect(await db.models.User.findByPk(user.id)).not.toBeNull();
  });

  it('revert only down to a named migration', async () => {
    const db = await (await freshDatabase()).open();
    await migrateUp(db);
    const second = knownMigrations[1];
    const reverted = await migrateDown(db, { to: second as string });
    expect(reverted.at(-1)).toBe(second);
    expect(await pendingMigrations(db)).toEqual(knownMigrations.slice(1));
    expect(await tables(db)).toContain('users');
    expect(await tables(db)).not.toContain('audit_logs');
  });

  it('apply each migration exactly once when two processes migrate the same database together', async () => {
    const target = await freshDatabase();
    const [a, b] = [await target.open(), await target.open()];
    const [fromA, fromB] = await Promise.all([migrateUp(a), migrateUp(b)]);
    expect([...fromA, ...fromB].sort()).toEqual([...knownMigrations].sort());
    expect(fromA.filter((name) => fromB.includes(name))).toEqual([]);
    const [rows] = await a.sequelize.query('SELECT name FROM attestly_migrations ORDER BY name');
    expect((rows as Array<{ name: string }>).map((row) => row.name)).toEqual([...knownMigrations].sort());
    expect(await pendingMigrations(b)).toEqual([]);
  });

  it('enforce unique email addresses regardless of case in the database itself', async () => {
    const db = await (await freshDatabase()).open();
    await migrateUp(db);
    const insert = (email: string) =>
      db.sequelize.query(
        `INSERT INTO users (id, email, password_hash, full_name, is_active, is_partner, login_attempts, created_at, updated_at)
         VALUES (:id, :email, 'x', 'x', true, false, 0, :now, :now)`,
        { replacements: { id: crypto.randomUUID(), email, now: new Date().toISOString() } },
      );
    await insert('Someone@Example.com');
    await expect(insert('someone@example.COM')).rejects.toBeInstanceOf(UniqueConstraintError);
  });
});
