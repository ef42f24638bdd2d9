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

interface CreateOptions extends SecretOptions {
  out?: string;
}

/** `attestly backup create`: an online, encrypted, checksummed archive of the whole database. */
export const backupCreateCommand = defineCommand<CreateOptions>(
  'create',
  (command) =>
    examples(
      command
        .description('Write an encrypted backup archive of the database (the server may keep running)')
        .option('--out <file>', 'archive to write (default: attestly-<time>.backup in the current folder)')
        .option(
          '--passphrase-file <file>',
          'encrypt with this passphrase (scrypt) instead of the master key',
        ),
      [
        'attestly backup create',
        'attestly backup create --out /backups/attestly.backup --passphrase-file /run/secrets/backup-passphrase',
      ],
    ),
  async (io, options) => {
    const config = await loadBackupConfig();
    const secret = readSecret(options, config.masterKey);
    const out = path.resolve(
      options.out ?? `attestly-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.backup`,
    );
    const { createBackup, archiveSize } =
      await import('../../../../apps/api/src/modules/operators/backup/service');
    const reporter = progressReporter(io);
    const started = Date.now();
    const manifest = await createBackup(config, { out, secret, onProgress: reporter.onProgress }).finally(
      reporter.finish,
    );
    io.result(
      {
        ok: true,
        file: out,
        bytes: archiveSize(out),
        ms: Date.now() - started,
        ...manifestSummary(manifest),
      },
      () => (
        <ManifestView
          manifest={manifest}
          title={`Backup written to ${out} (${(archiveSize(out) / 1e6).toFixed(1)} MB)`}
        />
      ),
    );
  },
);
