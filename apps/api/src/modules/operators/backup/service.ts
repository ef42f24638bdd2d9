import { createHash, createHmac } from 'node:crypto';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../../config';
import { deriveKey } from '../../../lib/crypto';
import { knownMigrations } from '../../../db/migrator';
import apiPackage from '../../../../package.json';
import { ArchiveError, ArchiveWriter, readArchive, type ArchiveSecret } from './archive';
import { locateDatabase, openPgSnapshot, openSqliteSnapshot, type Snapshot } from './sources';
import { encodeRow, type TableInfo } from './tables';

export { ArchiveError } from './archive';

/**
 * Portable backups (`attestly backup create|verify|restore`, DESIGN.md §7): one encrypted archive (archive.ts)
 * holding a header, one JSONL file per table in dependency order — review media and the OIDC signing keys are
 * tables too — and a closing manifest with each file's SHA-256 and row count.
 */
export const BACKUP_FORMAT_VERSION = 1;
const DATA_FRAME_BYTES = 256 * 1024;

export interface ArchiveFile {
  name: string;
  table: string;
  sha256: string;
  bytes: number;
  rows: number;
}

export interface BackupHeader {
  format_version: number;
  app: 'attestly';
  app_version: string;
  /** The last migration applied to the database backed up. */
  schema_version: string | null;
  migrations: string[];
  created_at: string;
  source_dialect: 'sqlite' | 'postgres';
  /** Identifies (without revealing) the master key that sealed TOTP secrets, media and signing keys. */
  master_key_id: string;
  tables: Array<{ name: string; rows: number }>;
}

export interface BackupManifest extends BackupHeader {
  files: ArchiveFile[];
}

export interface BackupProgress {
  phase: 'snapshot' | 'backup' | 'verify' | 'restore' | 'check';
  table?: string;
  done: number;
  total: number;
}

export type OnProgress = (progress: BackupProgress) => void;

export function masterKeyId(masterKey: Buffer): string {
  return createHmac('sha256', deriveKey(masterKey, 'backup-key-id'))
    .update('attestly')
    .digest('hex')
    .slice(0, 16);
}

const tableFile = (table: string) => `tables/${table}.jsonl`;

/** Rows of a table as canonical JSON lines (the same bytes whichever database they are read from). */
export async function* tableLines(
  table: TableInfo,
  rows: AsyncIterable<Record<string, unknown>>,
): AsyncGenerator<string> {
  const sorted = [...table.columns].sort((a, b) => (a.name < b.name ? -1 : 1));
  for await (const row of rows) yield `${encodeRow(table, row, sorted)}\n`;
}

async function openSnapshot(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Snapshot> {
  const location = locateDatabase(config.databaseUrl, config.dataDir);
  if (location.dialect === 'postgres') return openPgSnapshot(location.url);
  if (!existsSync(location.file)) throw new ArchiveError(`there is no database at ${location.file}`);
  return openSqliteSnapshot(location.file, path.dirname(location.file));
}

/** Writes a backup of the configured database to `out` (which must not exist). Online: the server may run. */
export async function createBackup(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'masterKey'>,
  options: { out: string; secret: ArchiveSecret; onProgress?: OnProgress; clock?: () => Date },
): Promise<BackupManifest> {
  if (existsSync(options.out)) throw new ArchiveError(`${options.out} already exists; choose another --out`);
  options.onProgress?.({ phase: 'snapshot', done: 0, total: 0 });
  const snapshot = await openSnapshot(config);
  const temporary = `${options.out}.partial-${randomBytes(4).toString('hex')}`;
  let writer: ArchiveWriter | null = null;
  try {
    const tables: BackupHeader['tables'] = [];
    for (const table of snapshot.tables) tables.push({ name: table.name, rows: await snapshot.count(table) });
    const total = tables.reduce((sum, table) => sum + table.rows, 0);
    const header: BackupHeader = {
      format_version: BACKUP_FORMAT_VERSION,
      app: 'attestly',
      app_version: apiPackage.version,
      schema_version: knownMigrations.filter((name) => snapshot.migrations.includes(name)).at(-1) ?? null,
      migrations: knownMigrations
        .filter((name) => snapshot.migrations.includes(name))
        .concat(snapshot.migrations.filter((name) => !knownMigrations.includes(name))),
      created_at: (options.clock?.() ?? new Date()).toISOString(),
      source_dialect: snapshot.dialect,
      master_key_id: masterKeyId(config.masterKey),
      tables,
    };
    writer = await ArchiveWriter.create(temporary, options.secret);
    await writer.frame('H', JSON.stringify(header));
    const files: ArchiveFile[] = [];
    let done = 0;
    for (const table of snapshot.tables) {
      const name = tableFile(table.name);
      await writer.frame('F', JSON.stringify({ name, table: table.name }));
      const hash = createHash('sha256');
      let bytes = 0;
      let rows = 0;
      let pending: string[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        if (!pending.length) return;
        const data = Buffer.from(pending.join(''));
        pending = [];
        pendingBytes = 0;
        hash.update(data);
        bytes += data.length;
        await (writer as ArchiveWriter).frame('D', data);
      };
      for await (const line of tableLines(table, snapshot.rows(table))) {
        pending.push(line);
        pendingBytes += line.length;
        rows += 1;
        done += 1;
        if (pendingBytes >= DATA_FRAME_BYTES) {
          await flush();
          options.onProgress?.({ phase: 'backup', table: table.name, done, total });
        }
      }
      await flush();
      const file = { name, table: table.name, sha256: hash.digest('hex'), bytes, rows };
      files.push(file);
      await writer.frame('E', JSON.stringify(file));
      options.onProgress?.({ phase: 'backup', table: table.name, done, total });
    }
    const manifest: BackupManifest = { ...header, files };
    await writer.frame('M', JSON.stringify(manifest));
    await writer.close();
    writer = null;
    renameSync(temporary, options.out);
    return manifest;
  } catch (error) {
    await writer?.abort();
    rmSync(temporary, { force: true });
    throw error;
  } finally {
    await snapshot.close();
  }
}

export interface ArchiveEntry {
  file: { name: string; table: string };
  lines: AsyncGenerator<string>;
}

/**
 * Reads an archive front to back, checking every file's SHA-256 and row count against its closing record and
 * the manifest. `onHeader` sees the header first (restore refuses a newer schema before writing anything);
 * `onFile` consumes each table's lines as they stream.
 */
export async function readBackup(
  file: string,
  secret: ArchiveSecret,
  handlers: {
    onHeader?: (header: BackupHeader) => Promise<void> | void;
    onFile?: (entry: ArchiveEntry) => Promise<void>;
    onProgress?: OnProgress;
  } = {},
): Promise<BackupManifest> {
  const frames = readArchive(file, secret);
  let header: BackupHeader | null = null;
  const seen: ArchiveFile[] = [];
  let total = 0;
  let done = 0;
  const parse = <T>(payload: Buffer, what: string): T => {
    try {
      return JSON.parse(payload.toString('utf8')) as T;
    } catch {
      throw new ArchiveError(`the archive is damaged (unreadable ${what})`);
    }
  };
  let next = await frames.next();
  if (next.done || next.value.type !== 'H') throw new ArchiveError('the archive is damaged (no header)');
  header = parse<BackupHeader>(next.value.payload, 'header');
  if (header.format_version > BACKUP_FORMAT_VERSION)
    throw new ArchiveError(
      `backup format ${header.format_version} is newer than this Attestly reads (${BACKUP_FORMAT_VERSION}); upgrade Attestly`,
    );
  total = header.tables.reduce((sum, table) => sum + table.rows, 0);
  await handlers.onHeader?.(header);
  for (;;) {
    next = await frames.next();
    if (next.done) throw new ArchiveError('the archive is truncated (no manifest)');
    const frame = next.value;
    if (frame.type === 'M') {
      const manifest = parse<BackupManifest>(frame.payload, 'manifest');
      const expected = JSON.stringify(manifest.files);
      if (expected !== JSON.stringify(seen) || manifest.master_key_id !== header.master_key_id)
        throw new ArchiveError('the archive is damaged (its manifest does not match its files)');
      if (!(await frames.next()).done)
        throw new ArchiveError('the archive is damaged (data after the manifest)');
      return manifest;
    }
    if (frame.type !== 'F') throw new ArchiveError(`the archive is damaged (unexpected ${frame.type} frame)`);
    const entry = parse<{ name: string; table: string }>(frame.payload, 'file record');
    const hash = createHash('sha256');
    let bytes = 0;
    let rows = 0;
    let closing: ArchiveFile | null = null;
    const tableName = entry.table;
    async function* lines(): AsyncGenerator<string> {
      let carry = '';
      for (;;) {
        const inner = await frames.next();
        if (inner.done) throw new ArchiveError('the archive is truncated (inside a table)');
        if (inner.value.type === 'E') {
          closing = parse<ArchiveFile>(inner.value.payload, 'file record');
          if (carry) throw new ArchiveError(`the archive is damaged (${entry.name} ends mid-line)`);
          return;
        }
        if (inner.value.type !== 'D')
          throw new ArchiveError('the archive is damaged (unexpected frame in a table)');
        hash.update(inner.value.payload);
        bytes += inner.value.payload.length;
        const text = carry + inner.value.payload.toString('utf8');
        const parts = text.split('\n');
        carry = parts.pop() ?? '';
        for (const line of parts) {
          rows += 1;
          done += 1;
          yield line;
        }
        handlers.onProgress?.({ phase: 'verify', table: tableName, done, total });
      }
    }
    const iterator = lines();
    if (handlers.onFile) await handlers.onFile({ file: entry, lines: iterator });
    // Whatever the consumer left unread is still checked.
    for await (const _line of iterator) void _line;
    const record = closing as ArchiveFile | null;
    const actual: ArchiveFile = {
      name: entry.name,
      table: entry.table,
      sha256: hash.digest('hex'),
      bytes,
      rows,
    };
    if (
      !record ||
      record.sha256 !== actual.sha256 ||
      record.rows !== actual.rows ||
      record.bytes !== actual.bytes
    )
      throw new ArchiveError(`the archive is damaged (${entry.name} does not match its checksum)`);
    seen.push(actual);
  }
}

/** Checks an archive end to end without writing anything. */
export async function verifyBackup(
  file: string,
  secret: ArchiveSecret,
  onProgress?: OnProgress,
): Promise<BackupManifest> {
  return readBackup(file, secret, onProgress ? { onProgress } : {});
}

export interface RestoreResult {
  manifest: BackupManifest;
  target: { dialect: 'sqlite' | 'postgres'; location: string };
  tables: Array<{ name: string; rows: number }>;
  migratedAfter: string[];
}

/** Bytes of an archive on disk, for reports. */
export const archiveSize = (file: string) => statSync(file).size;
