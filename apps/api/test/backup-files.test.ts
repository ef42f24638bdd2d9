import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database';
import { migrateUp } from '../src/db/migrator';
import { ArchiveError, createBackup } from '../src/modules/operators/backup/service';
import { restoreBackup } from '../src/modules/operators/backup/restore';

/**
 * What backups and the SQLite database leave on disk (issue 21 item 1): database files private to their owner, and
 * no snapshot copy left in the data directory after a backup, whether it succeeded or failed.
 */
const masterKey = randomBytes(32);
const directories: string[] = [];
afterAll(() => {
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
});

function directory(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  directories.push(dir);
  return dir;
}

const mode = (file: string) => statSync(file).mode & 0o777;

/** A migrated SQLite installation with some rows, left open (as a running server keeps it). */
async function installation() {
  const dataDir = directory('attestly-files-');
  const db = await createDatabase({ databaseUrl: null, dataDir });
  await migrateUp(db);
  const now = new Date();
  for (let i = 0; i < 20; i += 1) {
    await db.models.User.create({
      email: `user-${i}@example.com`,
      password_hash: 'x',
      full_name: `User ${i}`,
      created_at: now,
      updated_at: now,
    } as never);
  }
  return { dataDir, db, file: path.join(dataDir, 'attestly.sqlite') };
}

describe('SQLite database files', () => {
  it('are created 0600, and so are the -wal and -shm files SQLite makes beside them', async () => {
    const { db, file } = await installation();
    try {
      expect(mode(file)).toBe(0o600);
      expect(mode(`${file}-wal`)).toBe(0o600);
      expect(mode(`${file}-shm`)).toBe(0o600);
    } finally {
      await db.close();
    }
  });

  it('that an earlier version left readable by others are made 0600 when opened', async () => {
    const { db, file } = await installation();
    for (const name of [file, `${file}-wal`, `${file}-shm`]) chmodSync(name, 0o644);
    const reopened = await createDatabase({ databaseUrl: null, dataDir: path.dirname(file) });
    try {
      expect(await reopened.models.User.count()).toBe(20);
      expect(mode(file)).toBe(0o600);
      expect(mode(`${file}-wal`)).toBe(0o600);
      expect(mode(`${file}-shm`)).toBe(0o600);
    } finally {
      await reopened.close();
      await db.close();
    }
  });
});

describe('backup snapshots', () => {
  it('are private while they exist and leave nothing in the data directory after a backup', async () => {
    const { dataDir, db } = await installation();
    const before = readdirSync(dataDir).sort();
    const out = path.join(directory('attestly-out-'), 'a.backup');
    const seen: Array<{ name: string; mode: number }> = [];
    try {
      await createBackup(
        { databaseUrl: null, dataDir, masterKey },
        {
          out,
          secret: { masterKey },
          onProgress: () => {
            for (const name of readdirSync(dataDir).filter((entry) => entry.startsWith('.backup-snapshot')))
              seen.push({ name, mode: mode(path.join(dataDir, name)) });
          },
        },
      );
      expect(seen.length).toBeGreaterThan(0);
      // The copy holds the whole database: owner-only, and no -wal/-shm files of its own.
      for (const entry of seen)
        expect(entry).toMatchObject({ name: expect.stringMatching(/\.sqlite$/), mode: 0o600 });
      expect(readdirSync(dataDir).sort()).toEqual(before);
      expect(mode(out)).toBe(0o600);
    } finally {
      await db.close();
    }
  });

  it('leave nothing in the data directory when the backup fails part-way or cannot write its archive', async () => {
    const { dataDir, db } = await installation();
    const before = readdirSync(dataDir).sort();
    const outDir = directory('attestly-out-');
    try {
      // Fails while the snapshot is open and tables are being written.
      await expect(
        createBackup(
          { databaseUrl: null, dataDir, masterKey },
          {
            out: path.join(outDir, 'b.backup'),
            secret: { masterKey },
            onProgress: (progress) => {
              if (progress.phase === 'backup') throw new Error('disk full (simulated)');
            },
          },
        ),
      ).rejects.toThrow('disk full (simulated)');
      expect(readdirSync(dataDir).sort()).toEqual(before);
      expect(readdirSync(outDir)).toEqual([]);
      // An archive that cannot be written: the operator's error, named, and still nothing left behind.
      const nowhere = path.join(outDir, 'missing', 'c.backup');
      const failure = await createBackup(
        { databaseUrl: null, dataDir, masterKey },
        { out: nowhere, secret: { masterKey } },
      ).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ArchiveError);
      expect((failure as Error).message).toBe(
        `cannot write the archive in ${path.join(outDir, 'missing')} (ENOENT)`,
      );
      expect(readdirSync(dataDir).sort()).toEqual(before);
    } finally {
      await db.close();
    }
  });

  it('restore into SQLite writes a 0600 database and, when it fails, leaves the data directory as it was', async () => {
    const { dataDir, db } = await installation();
    const out = path.join(directory('attestly-out-'), 'r.backup');
    try {
      await createBackup({ databaseUrl: null, dataDir, masterKey }, { out, secret: { masterKey } });
    } finally {
      await db.close();
    }
    const target = directory('attestly-target-');
    const truncated = `${out}.cut`;
    const bytes = readFileSync(out);
    writeFileSync(truncated, bytes.subarray(0, bytes.length - 40));
    await expect(
      restoreBackup(
        { databaseUrl: null, dataDir: target, masterKey },
        { file: truncated, secret: { masterKey } },
      ),
    ).rejects.toThrow(/truncated|damaged/);
    expect(readdirSync(target)).toEqual([]);
    await restoreBackup(
      { databaseUrl: null, dataDir: target, masterKey },
      { file: out, secret: { masterKey } },
    );
    expect(readdirSync(target)).toEqual(['attestly.sqlite']);
    expect(mode(path.join(target, 'attestly.sqlite'))).toBe(0o600);
  });
});
