import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { createServer as createHttpServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { createApp } from '../../api/src/app';
import { bootstrap } from '../../api/src/bootstrap';
import { loadConfig } from '../../api/src/config';
import { createLogger } from '../../api/src/logger';
import { createOidc } from '../../api/src/oidc';
import { startSmtpCapture } from '../../api/test/helpers';
import { CHROMIUM } from './chromium';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(webRoot, '../..');
const dist = path.join(webRoot, 'dist');

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** GET returns every captured mail as JSON: [{ to, subject, text }]. */
    mailUrl: string;
    /** The server's SQLite file, for tests that must set up what no screen does (a proven age: wallet.e2e). */
    databaseFile: string;
  }
}

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

/** Builds the SPA when there is no build, or a source is newer than it. */
function ensureBuild(): void {
  const built = existsSync(path.join(dist, 'index.html'))
    ? statSync(path.join(dist, 'index.html')).mtimeMs
    : 0;
  const sources = Math.max(
    ...['src', 'public', 'index.html', 'vite.config.ts'].map((entry) =>
      newestMtime(path.join(webRoot, entry)),
    ),
    newestMtime(path.join(repoRoot, 'apps/contracts/src')),
  );
  if (built > sources) return;
  const vite = path.join(repoRoot, 'node_modules/vite/bin/vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: webRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('vite build of apps/web failed; see the output above');
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Browser tests need Debian's Chromium at ${CHROMIUM}: run \`apt-get install -y chromium\` (as root).`,
    );
  }
  ensureBuild();

  const dataDir = mkdtempSync(path.join(tmpdir(), 'attestly-e2e-'));
  const smtp = await startSmtpCapture();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    ATTESTLY_DATA_DIR: dataDir,
    ATTESTLY_PUBLIC_URL: baseUrl,
    ATTESTLY_SMTP_URL: smtp.url,
    ATTESTLY_WEB_DIR: dist,
    ATTESTLY_PASSWORD_COST: '12',
    ATTESTLY_SUPPORT_EMAIL: 'support@e2e.attestly.test',
    // Each browser context sends its own X-Forwarded-For, so per-address rate limits treat tests as separate clients.
    ATTESTLY_TRUST_PROXY: 'true',
    LOG_LEVEL: 'error',
  });
  const deps = await bootstrap(config, createLogger(config));
  // The OpenID Connect provider, as the server always mounts it (oidc-flow.e2e.test.ts drives it from a partner page).
  const oidc = await createOidc(deps, { keyCheckIntervalMs: 0 });
  const { app } = createApp(deps, { oidc });
  const server: Server = app.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));

  const mailServer = createHttpServer((_request, response) => {
    response.setHeader('Content-Type', 'application/json');
    response.end(JSON.stringify(smtp.messages.map(({ to, subject, text }) => ({ to, subject, text }))));
  });
  await new Promise<void>((resolve) => mailServer.listen(0, '127.0.0.1', resolve));

  project.provide('baseUrl', baseUrl);
  project.provide('databaseFile', path.join(dataDir, 'attestly.sqlite'));
  project.provide('mailUrl', `http://127.0.0.1:${(mailServer.address() as AddressInfo).port}/`);

  return async () => {
    oidc.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => mailServer.close(() => resolve()));
    await deps.db.close();
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
