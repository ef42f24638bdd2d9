import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Tests run the real `attestly` bin, so its bundle and the server bundle that `attestly serve` runs are rebuilt
 * from source first (esbuild: a few seconds).
 */
export default function setup(): void {
  const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
  for (const folder of ['apps/api', 'cli']) {
    execFileSync(process.execPath, ['build.mjs'], { cwd: path.join(root, folder), stdio: 'inherit' });
  }
}
