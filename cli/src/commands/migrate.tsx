import { Argument } from 'commander';
import { Text } from 'ink';
import type { MigrateAction } from '../../../apps/api/src/db/run-migrations';
import { defineCommand, examples } from '../lib/command';

interface MigrateOptions {
  to?: string;
  all?: boolean;
}

/** `attestly migrate [up|down|status]`: the server's own migrations (apps/api/src/db/run-migrations.ts). */
export const migrateCommand = defineCommand<MigrateOptions>(
  'migrate',
  (command) =>
    examples(
      command
        .description('Apply, revert or list database migrations')
        .addArgument(new Argument('[action]', 'what to do').choices(['up', 'down', 'status']).default('up'))
        .option('--to <migration>', 'down: revert down to and including this migration')
        .option('--all', 'down: revert every migration (empties the database)'),
      [
        'attestly migrate',
        'attestly migrate status --json',
        'attestly migrate down',
        'attestly migrate down --all',
      ],
    ),
  async (io, options, args) => {
    const action = (args[0] ?? 'up') as MigrateAction;
    const { openCommandContext, runMigrations } = await import('../lib/api');
    const context = await openCommandContext({ debug: io.debug, migrate: 'skip' });
    try {
      const to = options.all ? 0 : options.to;
      const result = await runMigrations(context.deps.db, action, to === undefined ? {} : { to });
      const changed = result.migrations.length > 0 && action !== 'status';
      io.result(result, <Text color={changed ? 'green' : undefined}>{result.message}</Text>);
    } finally {
      await context.close();
    }
  },
);
