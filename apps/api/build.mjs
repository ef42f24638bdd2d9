// Bundles the API server (with the workspace packages it imports as TypeScript source) into dist/.
// Third-party packages stay external and load from node_modules at run time.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

const workspaceSource = {
  name: 'externalise-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'entry-point' || args.path.startsWith('@attestly/')
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

const entryPoints = { server: 'src/server.ts', migrate: 'src/migrate.ts' };
// The vision worker runs in its own thread and must sit next to server.js (see models/src).
if (existsSync(`${here}../../models/src/vision-worker.ts`))
  entryPoints['vision-worker'] = '../../models/src/vision-worker.ts';

await build({
  absWorkingDir: here,
  entryPoints,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [workspaceSource],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
console.log(
  `api: built ${Object.keys(entryPoints)
    .map((name) => `dist/${name}.js`)
    .join(', ')}`,
);
