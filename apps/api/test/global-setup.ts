import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The tests that start the server as a process (server-process.ts) run its bundle, apps/api/dist/server.js, the very
 * file `attestly serve` and the container run: it is rebuilt from source first (esbuild, under a second).
 */
export default function setup(): void {
  const api = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
  execFileSync(process.execPath, ['build.mjs'], { cwd: api, stdio: 'inherit' });
}
