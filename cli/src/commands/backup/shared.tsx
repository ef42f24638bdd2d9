import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Box, Text } from 'ink';
import type {
  BackupManifest,
  BackupProgress,
} from '../../../../apps/api/src/modules/operators/backup/service';
import type { ArchiveSecret } from '../../../../apps/api/src/modules/operators/backup/archive';
import { Table } from '../../components/table';
import { UserError } from '../../lib/errors';
import type { Io, Progress } from '../../lib/io';

export interface SecretOptions {
  passphraseFile?: string;
}

/**
 * The configuration, refusing to go on without a master key: the config loader would otherwise create a new one,
 * which could never open (or restore) data sealed under the original.
 */
export async function loadBackupConfig() {
  const dataDir = path.resolve(process.env.ATTESTLY_DATA_DIR || './data');
  if (!process.env.ATTESTLY_MASTER_KEY && !existsSync(path.join(dataDir, 'master.key')))
    throw new UserError(
      `no master key: ATTESTLY_MASTER_KEY is not set and ${path.join(dataDir, 'master.key')} does not exist`,
      'Set ATTESTLY_MASTER_KEY or copy the original master.key into the data directory (chmod 600).',
    );
  const { loadConfig } = await import('../../lib/api');
  return loadConfig();
}

export function readSecret(options: SecretOptions, masterKey: Buffer | null): ArchiveSecret {
  if (options.passphraseFile) {
    let passphrase: string;
    try {
      passphrase = readFileSync(options.passphraseFile, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      throw new UserError(
        `cannot read the passphrase file ${options.passphraseFile} (${(error as NodeJS.ErrnoException).code})`,
      );
    }
    if (passphrase.length < 8) throw new UserError('the passphrase must be at least 8 characters long');
    return { passphrase };
  }
  if (!masterKey) throw new UserError('no master key');
  return { masterKey };
}

const PHASES: Record<BackupProgress['phase'], string> = {
  snapshot: 'Snapshot',
  backup: 'Backing up',
  verify: 'Verifying',
  restore: 'Restoring',
  check: 'Checking',
};

/** One progress bar per phase, created when the phase reports its first figures. */
export function progressReporter(io: Io): { onProgress: (progress: BackupProgress) => void; finish(): void } {
  let bar: { phase: string; progress: Progress } | null = null;
  return {
    onProgress(progress) {
      if (progress.total === 0 && progress.phase === 'snapshot') return;
      if (!bar || bar.phase !== progress.phase) {
        bar?.progress.done();
        bar = { phase: progress.phase, progress: io.progress(PHASES[progress.phase], progress.total) };
      }
      bar.progress.update(progress.done, progress.total);
    },
    finish() {
      bar?.progress.done();
      bar = null;
    },
  };
}

export function manifestSummary(manifest: BackupManifest) {
  return {
    format_version: manifest.format_version,
    app_version: manifest.app_version,
    schema_version: manifest.schema_version,
    created_at: manifest.created_at,
    source_dialect: manifest.source_dialect,
    rows: manifest.files.reduce((sum, file) => sum + file.rows, 0),
    files: manifest.files,
  };
}

export function ManifestView({ manifest, title }: { manifest: BackupManifest; title: string }) {
  return (
    <Box flexDirection="column">
      <Text color="green">{`✔ ${title}`}</Text>
      <Text>{`  created ${manifest.created_at} from ${manifest.source_dialect}, Attestly ${manifest.app_version}, schema ${manifest.schema_version ?? 'empty'}`}</Text>
      <Table
        columns={['TABLE', 'ROWS', 'SHA-256']}
        rows={manifest.files
          .filter((file) => file.rows > 0)
          .map((file) => [file.table, String(file.rows), file.sha256.slice(0, 16)])}
        empty="  (no rows)"
      />
    </Box>
  );
}
