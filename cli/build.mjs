// Bundles the CLI (with the API's TypeScript source it imports) into dist/attestly.js, like apps/api/build.mjs.
// Third-party packages stay external and load from node_modules at run time.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

const externaliseThirdParty = {
  name: 'externalise-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'entry-point' || args.path.startsWith('@attestly/')
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

await build({
  absWorkingDir: here,
  // The vision worker must sit beside the code that starts it (models/src/worker-pool.ts): doctor's test inference.
  entryPoints: { attestly: 'src/index.ts', 'vision-worker': '../models/src/vision-worker.ts' },
  // Commands load the API lazily (dynamic imports): chunks keep `--help` from loading the whole server.
  splitting: true,
  chunkNames: '[name]-[hash]',
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externaliseThirdParty],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
console.log('cli: built dist/attestly.js');
