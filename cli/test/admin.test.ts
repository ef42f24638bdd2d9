import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../apps/api/src/modules/backoffice/accounts/totp';
import { exited, startServerProcess } from '../../apps/api/test/server-process';
import { bin, root, runCli, throwaway } from './run-cli';

const PASSWORD = 'Correct-Horse-9-battery';

describe('attestly admin', () => {
  let data: Awaited<ReturnType<typeof throwaway>>;
  beforeAll(async () => {
    data = await throwaway();
    expect((await runCli(['migrate'], { env: data.env })).code).toBe(0);
  });
  afterAll(async () => {
    await data.drop();
  });

  it('creates an administrator from a password on standard input and lists it', async () => {
    const created = await runCli(
      ['admin', 'create', '--email', 'Ops@Example.com', '--name', 'Ops', '--password-stdin', '--json'],
      {
        env: data.env,
        input: `${PASSWORD}\n`,
      },
    );
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      ok: true,
      admin: { email: 'ops@example.com', totp_enabled: false },
    });
    const listed = await runCli(['admin', 'list', '--json'], { env: data.env });
    expect(JSON.parse(listed.stdout).admins).toEqual([
      expect.objectContaining({ email: 'ops@example.com', full_name: 'Ops', status: 'active' }),
    ]);
  });

  it('refuses a duplicate email, a weak password and a missing terminal with exit code 1', async () => {
    const duplicate = await runCli(['admin', 'create', '--email', 'ops@example.com', '--password-stdin'], {
      env: data.env,
      input: PASSWORD,
    });
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(/^Error: An administrator with this email already exists/);
    const weak = await runCli(['admin', 'create', '--email', 'weak@example.com', '--password-stdin'], {
      env: data.env,
      input: 'short',
    });
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/^Error: /);
    const noTty = await runCli(['admin', 'create', '--email', 'x@example.com'], { env: data.env });
    expect(noTty.code).toBe(1);
    expect(noTty.stderr).toMatch(/--password-stdin/);
    const unknown = await runCli(['admin', '2fa', 'reset', '--email', 'nobody@example.com'], {
      env: data.env,
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no administrator with the email nobody@example.com/);
  });

  it('bootstraps 2FA with the printed secret, after which the administrator signs in to the API with a code', async () => {
    const child = spawn(process.execPath, [bin, 'admin', '2fa', 'bootstrap', '--email', 'ops@example.com'], {
      cwd: root,
      env: { ...process.env, ...data.env },
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const secret = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /Secret: ([A-Z2-7]+)/.exec(stdout);
        if (match && /Backup codes[\s\S]*\n\s+\S+\n/.test(stdout)) resolve(match[1] as string);
      });
      child.once('exit', (code) => reject(new Error(`bootstrap exited with ${code}: ${stdout}${stderr}`)));
    });
    // The terminal QR code encodes the otpauth URL; the backup codes follow.
    expect(stdout).toMatch(/otpauth:\/\/totp\/.*secret=/);
    expect(stdout).toMatch(/[▀▄█]/);
    const backupCodes = stdout.split('Backup codes')[1]?.trim().split('\n').slice(1) ?? [];
    expect(backupCodes.length).toBeGreaterThanOrEqual(8);
    child.stdin.write(`${totpCode(secret, new Date())}\n`);
    expect(await exited(child as never)).toBe(0);
    expect(stdout).toMatch(/Two-factor authentication is on for ops@example.com/);

    const again = await runCli(['admin', '2fa', 'bootstrap', '--email', 'ops@example.com'], {
      env: data.env,
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has two-factor authentication/);

    const server = await startServerProcess(
      {
        ...data.env,
        ATTESTLY_VISION: 'false',
        ATTESTLY_PASSWORD_COST: '10',
      },
      180_000,
    );
    try {
      const base = `http://127.0.0.1:${server.port}/api/v1/auth/admin`;
      const post = (route: string, body: unknown) =>
        fetch(`${base}${route}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      const login = await post('/login', { email: 'ops@example.com', password: PASSWORD });
      expect(login.status).toBe(200);
      const first = (await login.json()) as { requires_2fa: boolean; temp_token: string };
      expect(first.requires_2fa).toBe(true);
      // The confirming code's step is spent; the next step's code is within the accepted window.
      const verified = await post('/verify-2fa', {
        temp_token: first.temp_token,
        code: totpCode(secret, new Date(Date.now() + 30_000)),
      });
      expect(verified.status).toBe(200);
      expect(((await verified.json()) as { access_token: string }).access_token).toBeTruthy();
    } finally {
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
  });

  it('resets 2FA and disables an administrator', async () => {
    const reset = await runCli(['admin', '2fa', 'reset', '--email', 'ops@example.com', '--json'], {
      env: data.env,
    });
    expect(reset.code, reset.stderr).toBe(0);
    let admins = JSON.parse((await runCli(['admin', 'list', '--json'], { env: data.env })).stdout).admins;
    expect(admins[0]).toMatchObject({ totp_enabled: false });
    const setup = await runCli(
      ['admin', '2fa', 'bootstrap', '--email', 'ops@example.com', '--no-confirm', '--json'],
      {
        env: data.env,
      },
    );
    const { secret } = JSON.parse(setup.stdout) as { secret: string };
    const confirmed = await runCli(
      ['admin', '2fa', 'confirm', '--email', 'ops@example.com', '--code', totpCode(secret, new Date())],
      {
        env: data.env,
      },
    );
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect((await runCli(['admin', 'disable', '--email', 'ops@example.com'], { env: data.env })).code).toBe(
      0,
    );
    admins = JSON.parse((await runCli(['admin', 'list', '--json'], { env: data.env })).stdout).admins;
    expect(admins[0]).toMatchObject({ status: 'disabled', totp_enabled: true });
  });
});
