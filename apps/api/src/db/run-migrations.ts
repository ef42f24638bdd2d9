import type { Logger } from 'pino';
import type { Database } from './database';
import { appliedMigrations, knownMigrations, migrateDown, migrateUp, pendingMigrations } from './migrator';

export type MigrateAction = 'up' | 'down' | 'status';

export interface MigrateResult {
  action: MigrateAction;
  /** Applied (up), reverted (down) or pending (status) migration names. */
  migrations: string[];
  /** Migrations this database has, after the action. */
  applied: string[];
  message: string;
}

/**
 * `attestly migrate` and `npm run migrate`: the same migrations the server runs at start, under the same lock.
 * `down` reverts down to and including `to` (a migration name; 0 → everything); without `to`, only the last one.
 */
export async function runMigrations(
  db: Database,
  action: MigrateAction,
  options: { to?: string | 0; logger?: Logger } = {},
): Promise<MigrateResult> {
  let migrations: string[];
  let message: string;
  if (action === 'up') {
    migrations = await migrateUp(db, options.logger);
    message = migrations.length ? `Applied: ${migrations.join(', ')}` : 'Database is up to date.';
  } else if (action === 'down') {
    const pending = new Set(await pendingMigrations(db));
    const last = knownMigrations.filter((name) => !pending.has(name)).at(-1);
    const to = options.to ?? last;
    migrations = to === undefined ? [] : await migrateDown(db, { to }, options.logger);
    message = migrations.length ? `Reverted: ${migrations.join(', ')}` : 'Nothing to revert.';
  } else {
    // The operator guide's promise: status lists what is applied and what is pending, one name a line.
    migrations = await pendingMigrations(db);
    const applied = await appliedMigrations(db);
    const list = (names: string[]) => names.map((name) => `  ${name}`).join('\n');
    message = [
      applied.length ? `Applied (${applied.length}):\n${list(applied)}` : 'Applied: none',
      migrations.length
        ? `Pending (${migrations.length}):\n${list(migrations)}`
        : 'Pending: none (the database is up to date)',
    ].join('\n');
    return { action, migrations, applied, message };
  }
  const pending = new Set(await pendingMigrations(db));
  return { action, migrations, applied: knownMigrations.filter((name) => !pending.has(name)), message };
}
