import { ConfigError, loadConfig } from '../config';
import { createLogger } from '../logger';
import { createDatabase } from '../db/database';
import { migrateDown, migrateUp, pendingMigrations } from '../db/migrator';

/** `npm run migrate [-- up|down|status]`: the same migrations the server runs at start, under the same lock. */
async function main(): Promise<void> {
  const command = process.argv[2] ?? 'up';
  const config = loadConfig();
  const logger = createLogger(config);
  const db = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (command === 'up') {
      const applied = await migrateUp(db, logger);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
    } else if (command === 'down') {
      const reverted = await migrateDown(db, { to: process.argv[3] ?? 0 }, logger);
      console.log(reverted.length ? `Reverted: ${reverted.join(', ')}` : 'Nothing to revert.');
    } else if (command === 'status') {
      const pending = await pendingMigrations(db);
      console.log(pending.length ? `Pending: ${pending.join(', ')}` : 'Database is up to date.');
    } else {
      console.error(`Unknown command '${command}'. Use up, down or status.`);
      process.exitCode = 1;
    }
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
