import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testDatabaseUrl, createTestDatabase } from './helpers';
import { exited, serverCommand, startServerProcess } from './server-process';

const startServer = startServerProcess;

/** Polls /readyz: components such as the vision models become ready some time after the port opens. */
async function waitReady(base: string, timeoutMs = 90_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let status = 0;
  while (Date.now() < deadline) {
    status = (await fetch(`${base}/readyz`)).status;
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return status;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('server entry', () => {
  it('refuses to start on bad configuration and lists every problem', async () => {
    const child = spawn(serverCommand[0], [...serverCommand[1]], {
      env: {
        ...process.env,
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        ATTESTLY_PUBLIC_URL: 'not a url',
        ATTESTLY_MASTER_KEY: 'short',
      },
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await exited(child)).toBe(1);
    expect(output).toContain('Invalid configuration');
    expect(output).toContain('PORT must be a port number');
    expect(output).toContain('LOG_LEVEL must be one of');
    expect(output).toContain('ATTESTLY_PUBLIC_URL must be a URL');
    expect(output).toContain('ATTESTLY_MASTER_KEY must be 32 bytes');
  });

  it('generates the master key once with owner-only permissions, migrates, and drains on SIGTERM', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-server-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { ATTESTLY_DATA_DIR: dataDir, DATABASE_URL: database.url ?? testDatabaseUrl ?? '' };
    const server = await startServer(env);
    cleanups.push(() => void server.child.kill('SIGKILL'));
    const base = `http://127.0.0.1:${server.port}`;
    expect(await waitReady(base)).toBe(200);
    const keyFile = path.join(dataDir, 'master.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    // A request in flight when SIGTERM arrives still gets its answer: the headers go out before the signal, the
    // body after it; then the process exits cleanly and accepts no new connections.
    const body = JSON.stringify({
      full_name: 'Drain Test',
      email: 'drain@example.com',
      password: 'long enough password',
    });
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
    socket.write(
      `POST /api/v1/users/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.write(body);
    await new Promise((resolve) => socket.once('close', resolve));
    expect(response).toMatch(/^HTTP\/1\.1 201/);
    expect(await exited(server.child)).toBe(0);
    expect(server.output()).toContain('shutting down');
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();

    // Second start: same key, no migrations left to apply, and the account made before the restart still exists.
    const modified = statSync(keyFile).mtimeMs;
    const again = await startServer(env);
    cleanups.push(() => void again.child.kill('SIGKILL'));
    expect(statSync(keyFile).mtimeMs).toBe(modified);
    expect(again.output()).not.toContain('database migrated');
    const login = await fetch(`http://127.0.0.1:${again.port}/api/v1/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'drain@example.com', password: 'long enough password' }),
    });
    expect(login.status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await exited(again.child)).toBe(0);
  }, 120_000);
});
