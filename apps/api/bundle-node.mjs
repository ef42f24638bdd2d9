// How the API server (build.mjs) and the CLI (cli/build.mjs) are bundled for Node: the workspace packages they
// import as TypeScript source are bundled in, third-party packages stay external and load from node_modules at run
// time, and `require` is given back to the ES modules for the CommonJS packages that still call it.
import { build } from 'esbuild';

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

/** Bundles `entryPoints` (relative to `here`) into `here/dist`; `options` adds to or overrides esbuild's. */
export function bundleForNode(here, entryPoints, options = {}) {
  return build({
    absWorkingDir: here,
    entryPoints,
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externaliseThirdParty],
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    ...options,
  });
}
