import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, root, runCli, throwaway } from './run-cli';

describe('attestly (program, serve, migrate)', () => {
  let data: Awaited<ReturnType<typeof throwaway>>;
  beforeAll(async () => {
    data = await throwaway();
  });
  afterAll(async () => {
    await data.drop();
  });

  it('lists every command with examples and exit codes in --help', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/serve/);
    expect(result.stdout).toMatch(/migrate/);
    expect(result.stdout).toMatch(/Examples:/);
    expect(result.stdout).toMatch(/Exit codes: 0 ok, 1/);
    const migrate = await runCli(['migrate', '--help']);
    expect(migrate.stdout).toMatch(/attestly migrate status --json/);
  });

  it('applies, lists and reverts migrations, with one JSON document under --json', async () => {
    const before = await runCli(['migrate', 'status', '--json'], { env: data.env });
    expect(before.code).toBe(0);
    const pending = JSON.parse(before.stdout) as { migrations: string[]; applied: string[] };
    expect(pending.migrations.length).toBeGreaterThan(3);
    expect(pending.applied).toEqual([]);

    const up = await runCli(['migrate', 'up', '--json'], { env: data.env });
    expect(up.code).toBe(0);
    expect((JSON.parse(up.stdout) as { migrations: string[] }).migrations).toEqual(pending.migrations);

    // The guide's promise: status lists the applied migrations (one a line) and the pending ones.
    const status = await runCli(['migrate', 'status'], { env: data.env });
    const lines = status.stdout.trim().split('\n');
    expect(lines[0]).toBe(`Applied (${pending.migrations.length}):`);
    expect(lines.slice(1, -1).map((line) => line.trim())).toEqual(pending.migrations);
    expect(lines.at(-1)).toBe('Pending: none (the database is up to date)');

    const down = await runCli(['migrate', 'down', '--json'], { env: data.env });
    const reverted = JSON.parse(down.stdout) as { migrations: string[]; applied: string[] };
    expect(reverted.migrations).toEqual([pending.migrations.at(-1)]);
    expect(reverted.applied).toEqual(pending.migrations.slice(0, -1));
    const half = await runCli(['migrate', 'status'], { env: data.env });
    expect(half.stdout).toContain(`Applied (${pending.migrations.length - 1}):`);
    expect(half.stdout.trim().endsWith(`Pending (1):\n  ${pending.migrations.at(-1)}`)).toBe(true);
    expect((await runCli(['migrate'], { env: data.env })).code).toBe(0);
  });

  it('refuses an unknown action and an unreachable database with exit code 1 and a one-line reason', async () => {
    const bad = await runCli(['migrate', 'sideways'], { env: data.env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Allowed choices are up, down, status/);

    const unreachable = await runCli(['migrate', 'status'], {
      env: { ...data.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^Error: cannot reach the database/);
    expect(unreachable.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports a bad configuration value as the operator’s error', async () => {
    const result = await runCli(['migrate', 'status', '--json'], { env: { ...data.env, PORT: 'eighty' } });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: false,
      error: { message: 'PORT must be a port number' },
    });
  });

  it('serves the app and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--host', '127.0.0.1'], {
      cwd: root,
      env: { ...process.env, ...data.env, ATTESTLY_VISION: 'false', LOG_LEVEL: 'info' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      const poll = setInterval(() => {
        const match = /"port":(\d+)[^\n]*Attestly listening/.exec(output);
        if (match) {
          clearInterval(poll);
          resolve(Number(match[1]));
        }
      }, 50);
      child.once('exit', (code) => {
        clearInterval(poll);
        reject(new Error(`serve exited with ${code}: ${output}`));
      });
    });
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(response.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
