// Builds @attestly/sdk: ESM bundles (esbuild) and type declarations (tsc) into dist/, then what the appliance
// serves for download (apps/api/src/modules/partners/sdk-downloads): the npm tarball and the browser helper as one ES module.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
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

// The downloads: `npm pack` writes the same tarball a registry would serve (package.json `files`), and the browser
// helper is bundled on its own for `<script type="module">` (no Node built-ins in it).
const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8'));
const downloads = new URL('dist/download/', import.meta.url).pathname;
mkdirSync(downloads, { recursive: true });
const npm = process.env.npm_execpath;
execFileSync(
  npm && npm.endsWith('.js') ? process.execPath : 'npm',
  [...(npm && npm.endsWith('.js') ? [npm] : []), 'pack', '--silent', '--pack-destination', downloads],
  { cwd: here, stdio: ['ignore', 'ignore', 'inherit'] },
);
await build({
  absWorkingDir: here,
  entryPoints: { [`attestly-sdk-browser-${version}`]: 'src/browser.ts' },
  outdir: downloads,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
});
