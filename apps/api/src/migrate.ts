import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { createDatabase } from './db/database';
import { runMigrations } from './db/run-migrations';

/** `npm run migrate [-- up|down|status]` (also `attestly migrate`, which shares runMigrations). */
async function main(): Promise<void> {
  const command = process.argv[2] ?? 'up';
  if (command !== 'up' && command !== 'down' && command !== 'status') {
    console.error(`Unknown command '${command}'. Use up, down or status.`);
    process.exitCode = 1;
    return;
  }
  const config = loadConfig();
  const logger = createLogger(config);
  const db = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const result = await runMigrations(db, command, { to: process.argv[3] ?? 0, logger });
    console.log(result.message);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
