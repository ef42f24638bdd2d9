import { chmodSync, closeSync, existsSync, openSync, statSync } from 'node:fs';

/** The files SQLite keeps beside a database: the write-ahead log, its shared-memory index, the rollback journal. */
export const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'] as const;

const PRIVATE = 0o600;

/**
 * Makes a SQLite database file readable and writable by its owner only (0600) before SQLite opens it: it holds
 * password hashes, sessions, personal data and, in a backup snapshot, all of them. SQLite would create it with
 * 0644 (less the umask); created here first, it keeps 0600, and SQLite gives the -wal, -shm and -journal files it
 * creates later the database file's own mode. Files an earlier version created group- or world-readable are
 * tightened to 0600 as well; one this process may not change (another owner) is left as it is.
 */
export function privateDatabaseFile(file: string): void {
  if (file === ':memory:' || file === '' || file.startsWith('file:')) return;
  closeSync(openSync(file, 'a', PRIVATE));
  for (const path of [file, ...SQLITE_COMPANIONS.map((suffix) => file + suffix)]) {
    if (!existsSync(path) || (statSync(path).mode & 0o077) === 0) continue;
    try {
      chmodSync(path, PRIVATE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    }
  }
}
