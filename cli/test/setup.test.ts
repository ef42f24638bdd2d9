import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, throwaway } from './run-cli';

describe('attestly setup (non-interactive)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('writes the config and master key 0600, migrates and creates the first administrator; commands then use the file', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'attestly-setup-')), 'data');
    cleanups.push(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));
    const result = await runCli(
      [
        '--data-dir',
        dataDir,
        'setup',
        '--yes',
        '--public-url',
        'https://verify.example.com',
        '--admin-email',
        'ops@example.com',
        '--admin-password-stdin',
        '--json',
      ],
      { input: 'Correct-Horse-9-battery', env: { ATTESTLY_DATA_DIR: '', DATABASE_URL: '' } },
    );
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as {
      config_file: string;
      master_key_file: string;
      migrations: string[];
    };
    expect(report.migrations.length).toBeGreaterThan(3);
    expect(statSync(report.config_file).mode & 0o777).toBe(0o600);
    expect(statSync(report.master_key_file).mode & 0o777).toBe(0o600);
    expect(readFileSync(report.config_file, 'utf8')).toMatch(
      /^ATTESTLY_PUBLIC_URL=https:\/\/verify.example.com$/m,
    );
    const key = readFileSync(report.master_key_file, 'utf8');

    // The public URL now comes from the config file; the environment still wins.
    const doctor = JSON.parse(
      (
        await runCli(['doctor', '--quick', '--json'], {
          env: { ATTESTLY_DATA_DIR: dataDir, DATABASE_URL: '' },
        })
      ).stdout,
    ) as { checks: Array<{ id: string; detail: string }> };
    expect(doctor.checks.find((check) => check.id === 'config')?.detail).toMatch(
      /public URL https:\/\/verify.example.com/,
    );
    const admins = await runCli(['admin', 'list', '--json'], {
      env: { ATTESTLY_DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    expect(JSON.parse(admins.stdout).admins).toEqual([expect.objectContaining({ email: 'ops@example.com' })]);

    // Running setup again keeps the master key.
    const again = await runCli(['--data-dir', dataDir, 'setup', '--yes', '--json'], {
      env: { DATABASE_URL: '' },
    });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ master_key_created: false });
    expect(readFileSync(report.master_key_file, 'utf8')).toBe(key);
  });

  it('prints next steps that, run as printed from anywhere, reach the same installation', async () => {
    const base = mkdtempSync(path.join(tmpdir(), 'attestly-next-'));
    cleanups.push(() => rmSync(base, { recursive: true, force: true }));
    const dataDir = path.join(base, 'chosen data');
    const elsewhere = path.join(base, 'elsewhere');
    mkdirSync(elsewhere);
    const env = { ATTESTLY_DATA_DIR: '', DATABASE_URL: '' };
    const setup = await runCli(
      ['--data-dir', dataDir, 'setup', '--yes', '--public-url', 'https://next.example.com'],
      { env },
    );
    expect(setup.code, setup.stderr).toBe(0);
    const printed = setup.stdout.slice(setup.stdout.indexOf('Next:')).split('\n').slice(1);
    const steps = printed.map((line) => line.trim()).filter((line) => line.startsWith('attestly '));
    // A path with a space is quoted for the shell; every step names the same, absolute data directory.
    const flag = `attestly --data-dir '${dataDir}' `;
    expect(steps).toEqual([`${flag}admin create --email you@example.com`, `${flag}doctor`, `${flag}serve`]);
    const key = readFileSync(path.join(dataDir, 'master.key'), 'utf8');
    /** The printed line as a shell would split it (one single-quoted word at most, as printed here). */
    const argsOf = (line: string) =>
      [...line.replace(/^attestly /, '').matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);

    // doctor, run as printed from another directory without ATTESTLY_DATA_DIR: this installation's config.
    const doctor = await runCli(argsOf(steps[1]!), { env, cwd: elsewhere });
    expect(doctor.stdout).toMatch(/public URL https:\/\/next\.example\.com/);
    // admin create as printed (the password piped in, as a script would): the administrator lands here.
    const created = await runCli([...argsOf(steps[0]!), '--password-stdin'], {
      env,
      cwd: elsewhere,
      input: 'Correct-Horse-9-battery',
    });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(`Next: \`${flag}admin 2fa bootstrap --email you@example.com\``);
    const admins = await runCli(['--data-dir', dataDir, 'admin', 'list', '--json'], { env });
    expect(JSON.parse(admins.stdout).admins).toEqual([expect.objectContaining({ email: 'you@example.com' })]);
    // No second installation appeared, and the master key is the one setup made.
    expect(existsSync(path.join(elsewhere, 'data'))).toBe(false);
    expect(readFileSync(path.join(dataDir, 'master.key'), 'utf8')).toBe(key);
    // The same steps come in the JSON report for scripts.
    const json = await runCli(['--data-dir', dataDir, 'setup', '--yes', '--json'], { env });
    expect(JSON.parse(json.stdout).next_steps).toEqual(steps);
  });

  it('follows a usage error with a hint line naming the command’s own --help', async () => {
    const unknown = await runCli(['admin', 'create', '--email', 'a@example.com', '--nmae', 'Ada']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: unknown option '--nmae'/m);
    expect(unknown.stderr).toMatch(/^Hint: Run `attestly admin create --help` for its options/m);
    const missing = await runCli(['admin', 'create', '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({
      ok: false,
      error: {
        message: "required option '--email <email>' not specified",
        hint: 'Run `attestly admin create --help` to see what it needs.',
      },
    });
    const command = await runCli(['serv']);
    expect(command.stderr).toMatch(/^Hint: Run `attestly --help` for the list of commands\.$/m);
  });

  it('tests a PostgreSQL URL live and stores it', async () => {
    const database = await throwaway({ postgres: true });
    cleanups.push(() => database.drop());
    const result = await runCli(
      [
        '--data-dir',
        database.dataDir,
        '--database-url',
        database.databaseUrl as string,
        'setup',
        '--yes',
        '--json',
      ],
      { env: { DATABASE_URL: '' } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ database: 'postgres' });
    expect(readFileSync(path.join(database.dataDir, 'attestly.env'), 'utf8')).toContain(
      `DATABASE_URL=${database.databaseUrl}`,
    );
  });

  it('refuses an unreachable database and a bad public URL in one line, and asks for a terminal without --yes', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-setup-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const bad = await runCli(
      [
        '--data-dir',
        dataDir,
        '--database-url',
        'postgres://nobody@127.0.0.1:1/x',
        'setup',
        '--yes',
        '--public-url',
        'ftp://x',
      ],
      { env: { DATABASE_URL: '' } },
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Error: Cannot connect: .*; The public URL must use http or https/);
    const noTty = await runCli(['--data-dir', dataDir, 'setup'], { env: { DATABASE_URL: '' } });
    expect(noTty.code).toBe(1);
    expect(noTty.stderr).toMatch(/Pass --yes/);
  });
});
