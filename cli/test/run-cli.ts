import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { randomBytes } from 'node:crypto';

export const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const bin = path.join(root, 'cli/bin/attestly.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `attestly …` as its own process (the built bin), optionally feeding stdin, and collects its output. */
export function runCli(
  args: string[],
  options: {
    env?: Record<string, string | undefined>;
    input?: string;
    timeoutMs?: number;
    /** Where the command runs (the repository root by default). */
    cwd?: string;
  } = {},
): Promise<CliResult> {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ATTESTLY_PASSWORD_COST: '10', ...options.env },
    cwd: options.cwd ?? root,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`attestly ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 240_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? null;
export const onPostgres = !!testDatabaseUrl && /^postgres(ql)?:/.test(testDatabaseUrl);

/** A throwaway data directory and database (SQLite in the directory, or a fresh PostgreSQL database). */
export async function throwaway(options: { postgres?: boolean } = {}): Promise<{
  dataDir: string;
  env: Record<string, string>;
  databaseUrl: string | null;
  drop(): Promise<void>;
}> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-cli-'));
  const usePg = options.postgres ?? onPostgres;
  if (!usePg) {
    return {
      dataDir,
      databaseUrl: null,
      env: { ATTESTLY_DATA_DIR: dataDir, DATABASE_URL: '' },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const base = testDatabaseUrl ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `attestly_cli_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    env: { ATTESTLY_DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
