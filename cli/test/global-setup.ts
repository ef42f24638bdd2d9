import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Tests run the real `attestly` bin, so its bundle is rebuilt from source first (esbuild: under a second). The server
 * bundle that `attestly serve` runs is rebuilt by the API tests' global setup, which the cli project lists too.
 */
export default function setup(): void {
  const cli = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
  execFileSync(process.execPath, ['build.mjs'], { cwd: cli, stdio: 'inherit' });
}
