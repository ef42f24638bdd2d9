import pino, { type Logger } from 'pino';
import { loadConfig, type Config } from '../../../apps/api/src/config';
import { createDatabase, type Database } from '../../../apps/api/src/db/database';
import { migrateUp, pendingMigrations } from '../../../apps/api/src/db/migrator';
import type { Deps } from '../../../apps/api/src/core/deps';
import { systemClock } from '../../../apps/api/src/lib/clock';
import { createMailer } from '../../../apps/api/src/modules/shared/notifications/mailer';
import { createLogPhoneNotifier } from '../../../apps/api/src/modules/shared/notifications/phone';
import { createServices, type AppServices } from '../../../apps/api/src/services';

export interface CommandContext {
  config: Config;
  deps: Deps;
  services: AppServices;
  close(): Promise<void>;
}

/** Thrown when the schema is behind and the command was told not to migrate (the CLI turns it into exit 1). */
export class PendingMigrationsError extends Error {
  constructor(readonly pending: string[]) {
    super(`the database has ${pending.length} pending migration(s); run \`attestly migrate\` first`);
    this.name = 'PendingMigrationsError';
  }
}

/**
 * What a one-shot operator command (the `attestly` CLI, scripts) needs: the parsed config, the deps the server
 * builds (bootstrap.ts) and the same services (services.ts), so a command never re-implements a rule. Logs go to
 * stderr at `warn` unless `debug`, so that stdout stays the command's own output (`--json`).
 */
export async function openCommandContext(
  options: {
    env?: Record<string, string | undefined>;
    debug?: boolean;
    /** true: apply pending migrations; false (default): refuse a database that is behind; 'skip': neither. */
    migrate?: boolean | 'skip';
    config?: Config;
  } = {},
): Promise<CommandContext> {
  const config = options.config ?? loadConfig(options.env);
  const logger: Logger = pino(
    { level: options.debug ? 'debug' : 'warn', base: { service: 'attestly-cli' } },
    pino.destination({ dest: 2, sync: true }),
  );
  const db: Database = await createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    logger,
  });
  try {
    if (options.migrate === true) {
      await migrateUp(db, logger);
    } else if (options.migrate !== 'skip') {
      const pending = await pendingMigrations(db);
      if (pending.length > 0) throw new PendingMigrationsError(pending);
    }
  } catch (error) {
    await db.close();
    throw error;
  }
  const deps: Deps = {
    config,
    db,
    logger,
    clock: systemClock,
    mailer: createMailer(config, logger),
    phone: createLogPhoneNotifier(logger),
  };
  const services = createServices(deps);
  return {
    config,
    deps,
    services,
    async close() {
      await services.users.whenIdle();
      await db.close();
    },
  };
}
