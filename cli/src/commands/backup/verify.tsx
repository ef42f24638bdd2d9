import path from 'node:path';
import { defineCommand, examples } from '../../lib/command';
import {
  loadBackupConfig,
  ManifestView,
  manifestSummary,
  progressReporter,
  readSecret,
  type SecretOptions,
} from './shared';

/** `attestly backup verify FILE`: decrypts and checks every chunk, file checksum and row count. */
export const backupVerifyCommand = defineCommand<SecretOptions>(
  'verify',
  (command) =>
    examples(
      command
        .description(
          'Check an archive end to end (authentication, checksums, row counts) without restoring it',
        )
        .argument('<file>', 'the archive')
        .option('--passphrase-file <file>', 'the passphrase it was created with'),
      [
        'attestly backup verify attestly.backup',
        'attestly backup verify attestly.backup --passphrase-file pass.txt --json',
      ],
    ),
  async (io, options, args) => {
    const file = path.resolve(args[0] as string);
    const masterKey = options.passphraseFile ? null : (await loadBackupConfig()).masterKey;
    const secret = readSecret(options, masterKey);
    const { verifyBackup } = await import('../../../../apps/api/src/modules/operators/backup/service');
    const reporter = progressReporter(io);
    const manifest = await verifyBackup(file, secret, reporter.onProgress).finally(reporter.finish);
    io.result({ ok: true, file, ...manifestSummary(manifest) }, () => (
      <ManifestView manifest={manifest} title={`${file} is intact`} />
    ));
  },
);
