/**
 * Everything the CLI uses from the API package, in one place: commands call the same services as the server
 * (no second implementation of any rule). Relative paths, because @attestly/api exports only its app entry.
 */
export { ConfigError, loadConfig, type Config } from '../../../apps/api/src/config';
export { openCommandContext, PendingMigrationsError, type CommandContext } from './open';
export { createDatabase, type Database } from '../../../apps/api/src/db/database';
export {
  knownMigrations,
  migrateDown,
  migrateUp,
  pendingMigrations,
} from '../../../apps/api/src/db/migrator';
export { runMigrations, type MigrateAction } from '../../../apps/api/src/db/run-migrations';
