import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/database';
import { migrateUp } from '../src/db/migrator';
import * as createAdmins from '../src/db/migrations/20261126010000-create-admins';
import * as adminListIndexes from '../src/db/migrations/20261126010100-admin-list-indexes';
import * as adminFilterIndexes from '../src/db/migrations/20261126010200-admin-filter-indexes';
import * as usersLiveIndex from '../src/db/migrations/20261126010300-users-live-index';
import * as adminPageIndexes from '../src/db/migrations/20261126120000-admin-page-indexes';
import * as adminTrigramSearch from '../src/db/migrations/20261126120100-admin-trigram-search';
import { createTestDatabase } from './helpers';

let target: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
beforeAll(async () => {
  target = await createTestDatabase();
  db = await createDatabase({ databaseUrl: target.url, dataDir: target.dataDir });
  await migrateUp(db);
});
afterAll(async () => {
  await db.close();
  await target.drop();
});

const ADMIN_MIGRATIONS = [
  createAdmins,
  adminListIndexes,
  adminFilterIndexes,
  usersLiveIndex,
  adminPageIndexes,
  adminTrigramSearch,
];

async function tables(): Promise<string[]> {
  const names = await db.sequelize.getQueryInterface().showAllTables();
  return names.map((name) => (typeof name === 'string' ? name : (name as { tableName: string }).tableName));
}

describe('back-office migrations', () => {
  it('revert in reverse order and apply again on this database', async () => {
    const qi = db.sequelize.getQueryInterface();
    const run = (step: 'up' | 'down', module: (typeof ADMIN_MIGRATIONS)[number]) =>
      (module[step] as (params: { context: typeof qi; name: string }) => Promise<void>)({
        context: qi,
        name: step,
      });
    expect(await tables()).toEqual(expect.arrayContaining(['admins', 'admin_backup_codes', 'user_flags']));
    for (const module of [...ADMIN_MIGRATIONS].reverse()) await run('down', module);
    const after = await tables();
    for (const table of ['admins', 'admin_backup_codes', 'user_flags']) expect(after).not.toContain(table);
    for (const module of ADMIN_MIGRATIONS) await run('up', module);
    expect(await tables()).toEqual(expect.arrayContaining(['admins', 'admin_backup_codes', 'user_flags']));
    // The partial unique index allows one open flag per user and any number of resolved ones.
    const now = new Date();
    const user = await db.models.User.create({
      email: 'flagged@example.com',
      password_hash: 'x',
      full_name: 'F',
      created_at: now,
      updated_at: now,
    } as never);
    const flag = { user_id: user.id, reason: 'r', priority: 'low', created_at: now } as never;
    await db.models.UserFlag.create(flag);
    await expect(db.models.UserFlag.create(flag)).rejects.toThrow();
    await db.models.UserFlag.update({ resolved_at: now }, { where: { user_id: user.id } });
    await db.models.UserFlag.create(flag);
    expect(await db.models.UserFlag.count({ where: { user_id: user.id } })).toBe(2);
  });
});
