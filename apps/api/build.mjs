// Bundles the API server (with the workspace packages it imports as TypeScript source) into dist/ (bundle-node.mjs).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from './bundle-node.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

const entryPoints = { server: 'src/server.ts', migrate: 'src/migrate.ts' };
// The vision worker runs in its own thread and must sit next to server.js (see models/src).
if (existsSync(`${here}../../models/src/vision-worker.ts`))
  entryPoints['vision-worker'] = '../../models/src/vision-worker.ts';

await bundleForNode(here, entryPoints);
console.log(
  `api: built ${Object.keys(entryPoints)
    .map((name) => `dist/${name}.js`)
    .join(', ')}`,
);
