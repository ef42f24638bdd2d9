// Builds @attestly/sdk: ESM bundles (esbuild) and type declarations (tsc) into dist/.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
rmSync(new URL('dist', import.meta.url), { recursive: true, force: true });
await build({
  absWorkingDir: here,
  entryPoints: ['src/index.ts', 'src/browser.ts'],
  outdir: 'dist',
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  // verifyWebhook (src/webhooks.ts) uses node:crypto: the server client runs on Node.
  external: ['node:*'],
  target: 'es2022',
  sourcemap: true,
});
execFileSync(
  process.execPath,
  [new URL('../../node_modules/typescript/bin/tsc', import.meta.url).pathname, '-p', 'tsconfig.build.json'],
  {
    cwd: here,
    stdio: 'inherit',
  },
);
