import type { Logger } from 'pino';
import type { Config } from './config';
import { createDatabase, type Database } from './db/database';
import { migrateUp } from './db/migrator';
import type { Deps } from './core/deps';
import { systemClock, type Clock } from './lib/clock';
import { createMailer, type Mailer } from './modules/shared/notifications/mailer';
import { createPhoneNotifier, type PhoneNotifier } from './modules/shared/notifications/phone';

/** Opens the database, brings its schema up to date (under the migration lock) and assembles the deps. */
export async function bootstrap(
  config: Config,
  logger: Logger,
  overrides: { clock?: Clock; mailer?: Mailer; phone?: PhoneNotifier } = {},
): Promise<Deps> {
  const db: Database = await createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    logger,
  });
  const applied = await migrateUp(db, logger);
  if (applied.length > 0) logger.info({ applied }, 'database migrated');
  const mailer = overrides.mailer ?? createMailer(config, logger);
  return {
    config,
    db,
    logger,
    clock: overrides.clock ?? systemClock,
    mailer,
    phone: overrides.phone ?? createPhoneNotifier(config, logger, mailer),
  };
}
