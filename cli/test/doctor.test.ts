import { chmodSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, throwaway } from './run-cli';

interface DoctorReport {
  ok: boolean;
  failed: number;
  checks: Array<{ id: string; status: 'pass' | 'warn' | 'fail'; detail: string; hint?: string }>;
}

describe('attestly doctor', () => {
  let data: Awaited<ReturnType<typeof throwaway>>;
  beforeAll(async () => {
    data = await throwaway();
    expect((await runCli(['migrate'], { env: data.env })).code).toBe(0);
  });
  afterAll(async () => {
    await data.drop();
  });

  it('reports every check with a status and passes a fresh, migrated installation', async () => {
    const result = await runCli(['doctor', '--quick', '--json'], { env: data.env });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.ok).toBe(true);
    const byId = Object.fromEntries(report.checks.map((check) => [check.id, check]));
    for (const id of [
      'config',
      'database',
      'migrations',
      'signing_keys',
      'master_key',
      'models',
      'inference',
      'ffmpeg',
      'ocr',
      'geoip',
      'disk',
      'mail',
      'runtime',
      'public_url',
    ])
      expect(byId[id], id).toBeDefined();
    expect(byId.migrations?.status).toBe('pass');
    expect(byId.master_key?.status).toBe('pass');
    // Without SMTP, mail goes to the outbox: a warning with its fix.
    expect(byId.mail).toMatchObject({ status: 'warn' });
    expect(byId.mail?.hint).toMatch(/ATTESTLY_SMTP_URL/);
  });

  it('fails with exit code 1 and a fix when the master key is readable by others', async () => {
    const keyFile = path.join(data.dataDir, 'master.key');
    chmodSync(keyFile, 0o644);
    try {
      const result = await runCli(['doctor', '--quick'], { env: data.env });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/✘ Master key: .* readable by others/);
      expect(result.stdout).toMatch(/chmod 600/);
    } finally {
      chmodSync(keyFile, 0o600);
    }
  });

  it('fails the migrations check on a database that is behind', async () => {
    expect((await runCli(['migrate', 'down'], { env: data.env })).code).toBe(0);
    const result = await runCli(['doctor', '--quick', '--json'], { env: data.env });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.checks.find((check) => check.id === 'migrations')).toMatchObject({ status: 'fail' });
    expect((await runCli(['migrate'], { env: data.env })).code).toBe(0);
  });
});
