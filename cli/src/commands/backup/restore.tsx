import path from 'node:path';
import { Box, Text } from 'ink';
import { defineCommand, examples } from '../../lib/command';
import {
  loadBackupConfig,
  manifestSummary,
  progressReporter,
  readSecret,
  type SecretOptions,
} from './shared';

interface RestoreOptions extends SecretOptions {
  force?: boolean;
}

/** `attestly backup restore FILE`: into an empty SQLite or PostgreSQL database, checked before it is kept. */
export const backupRestoreCommand = defineCommand<RestoreOptions>(
  'restore',
  (command) =>
    examples(
      command
        .description(
          'Restore an archive into an empty database (SQLite or PostgreSQL, whichever the archive came from)',
        )
        .argument('<file>', 'the archive')
        .option('--passphrase-file <file>', 'the passphrase it was created with')
        .option('--force', 'replace a database that already holds data')
        .addHelpText(
          'after',
          '\nThe target is the configured database; --database-url (a global option) names another one.\nStop the server first.',
        ),
      [
        'attestly backup restore attestly.backup',
        'attestly --database-url postgres://attestly@db/attestly backup restore attestly.backup',
        'attestly backup restore attestly.backup --force',
      ],
    ),
  async (io, options, args) => {
    const file = path.resolve(args[0] as string);
    const config = await loadBackupConfig();
    const secret = readSecret(options, config.masterKey);
    const { restoreBackup } = await import('../../../../apps/api/src/modules/operators/backup/restore');
    const reporter = progressReporter(io);
    const started = Date.now();
    const result = await restoreBackup(config, {
      file,
      secret,
      force: !!options.force,
      onProgress: reporter.onProgress,
    }).finally(reporter.finish);
    io.result(
      {
        ok: true,
        file,
        target: result.target,
        migrated_after: result.migratedAfter,
        ms: Date.now() - started,
        ...manifestSummary(result.manifest),
      },
      () => (
        <Box flexDirection="column">
          <Text color="green">{`✔ Restored ${result.tables.reduce((sum, table) => sum + table.rows, 0)} rows into ${result.target.dialect} ${result.target.location}; counts and checksums match the archive.`}</Text>
          {result.migratedAfter.length ? (
            <Text>{`  then applied: ${result.migratedAfter.join(', ')}`}</Text>
          ) : null}
        </Box>
      ),
    );
  },
);
