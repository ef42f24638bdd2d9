import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './helpers';
import { hasEnded, stopProcess } from './server-process';

/**
 * The container image's entrypoint (appliance/entrypoint.sh), exercised outside a container: there is no container
 * engine here, and the script is the same file the image runs (and the systemd unit starts). It runs the built
 * server — the `attestly` CLI when it is built, else the API bundle — so a bundle is built first if missing.
 */
const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const entrypoint = path.join(root, 'appliance/entrypoint.sh');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const children: ChildProcessWithoutNullStreams[] = [];
/** The key the first start generated: on PostgreSQL every start shares one database, whose keys it encrypts. */
let generatedKey = '';

beforeAll(async () => {
  const cliBuilt = existsSync(path.join(root, 'cli/dist/attestly.js'));
  if (!cliBuilt && !existsSync(path.join(root, 'apps/api/dist/server.js'))) {
    const build = spawnSync(process.execPath, ['build.mjs'], {
      cwd: path.join(root, 'apps/api'),
      encoding: 'utf8',
    });
    expect(build.status, build.stderr).toBe(0);
  }
  database = await createTestDatabase();
}, 120_000);

afterAll(async () => {
  for (const child of children) if (!hasEnded(child)) child.kill('SIGKILL');
  await database?.drop();
});

/** The environment of a container: only what the image sets, no node_modules/.bin on PATH. */
function baseEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: dataDir,
    ATTESTLY_HOME: root,
    ATTESTLY_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    ATTESTLY_VISION: 'false',
    ATTESTLY_PASSWORD_COST: '12',
    ATTESTLY_WEB_DIR: path.join(dataDir, 'no-web'),
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...extra,
  };
}

/** Runs the entrypoint until the server logs its port; resolves with the port and the collected output. */
function serve(env: Record<string, string>, args: string[] = []) {
  const child = spawn(entrypoint, args, { env });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ child: ChildProcessWithoutNullStreams; port: number; output: () => string }>(
    (resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`did not start:\n${output}`)), 60_000);
      const poll = setInterval(() => {
        const match = /"port":(\d+)[^\n]*Attestly listening/.exec(output);
        if (!match) return;
        clearInterval(poll);
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]), output: () => output });
      }, 50);
      child.once('exit', (code) => {
        clearInterval(poll);
        clearTimeout(timer);
        reject(new Error(`exited with ${code}:\n${output}`));
      });
    },
  );
}

describe('appliance/entrypoint.sh', () => {
  it('generates the master key on first start, says where, serves /healthz, and reuses the key after', async () => {
    const dataDir = path.join(database.dataDir, 'first-start');
    const first = await serve(baseEnv(dataDir));
    const keyFile = path.join(dataDir, 'master.key');
    expect(first.output()).toContain(`generated a new master key in ${keyFile}`);
    expect(first.output()).toContain('BACK IT UP');
    expect(readFileSync(keyFile, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const health = await fetch(`http://127.0.0.1:${first.port}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`http://127.0.0.1:${first.port}/readyz`);
    expect(ready.status).toBe(200);
    // SIGTERM reaches the server itself (the script execs it) and it drains and exits cleanly.
    expect(await stopProcess(first.child)).toBe(0);
    const key = readFileSync(keyFile, 'utf8');
    generatedKey = key.trim();

    const second = await serve(baseEnv(dataDir));
    expect(second.output()).not.toContain('generated a new master key');
    expect(second.output()).toContain(`using the master key in ${keyFile}`);
    expect(readFileSync(keyFile, 'utf8')).toBe(key);
    expect(await stopProcess(second.child)).toBe(0);
  });

  it('reads the master key from ATTESTLY_MASTER_KEY_FILE (a mounted secret) and writes none', async () => {
    const dataDir = path.join(database.dataDir, 'key-file');
    const secret = path.join(database.dataDir, 'master-key-secret');
    expect(generatedKey).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(secret, `${generatedKey}\n`, { mode: 0o600 });
    const started = await serve(baseEnv(dataDir, { ATTESTLY_MASTER_KEY_FILE: secret }));
    expect(started.output()).toContain('using the master key from ATTESTLY_MASTER_KEY');
    expect(existsSync(path.join(dataDir, 'master.key'))).toBe(false);
    expect((await fetch(`http://127.0.0.1:${started.port}/healthz`)).status).toBe(200);
    expect(await stopProcess(started.child)).toBe(0);
  });

  it('refuses a secret given twice, and a secret file it cannot read, before starting anything', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-entrypoint-'));
    try {
      const twice = spawnSync(entrypoint, [], {
        env: baseEnv(dataDir, {
          ATTESTLY_MASTER_KEY: randomBytes(32).toString('hex'),
          ATTESTLY_MASTER_KEY_FILE: path.join(dataDir, 'key'),
        }),
        encoding: 'utf8',
      });
      expect(twice.status).toBe(1);
      expect(twice.stderr).toContain('both ATTESTLY_MASTER_KEY and ATTESTLY_MASTER_KEY_FILE are set');
      const unreadable = spawnSync(entrypoint, [], {
        env: baseEnv(dataDir, { ATTESTLY_SMTP_URL_FILE: path.join(dataDir, 'missing') }),
        encoding: 'utf8',
      });
      expect(unreadable.status).toBe(1);
      expect(unreadable.stderr).toContain(
        `ATTESTLY_SMTP_URL_FILE points at ${path.join(dataDir, 'missing')}`,
      );
      expect(existsSync(path.join(dataDir, 'master.key'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('runs another program when given one (docker run … sh -c …)', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-entrypoint-'));
    try {
      const result = spawnSync(entrypoint, ['sh', '-c', 'echo "$ATTESTLY_HOME"'], {
        env: baseEnv(dataDir),
        encoding: 'utf8',
      });
      expect(result.status).toBe(0);
      expect(result.stdout.trim()).toBe(root);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
