// Bundles the CLI (with the API's TypeScript source it imports) into dist/attestly.js, as the API server is bundled
// (apps/api/bundle-node.mjs).
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../apps/api/bundle-node.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

await bundleForNode(
  here,
  // The vision worker must sit beside the code that starts it (models/src/worker-pool.ts): doctor's test inference.
  { attestly: 'src/index.ts', 'vision-worker': '../models/src/vision-worker.ts' },
  {
    // Commands load the API lazily (dynamic imports): chunks keep `--help` from loading the whole server.
    splitting: true,
    chunkNames: '[name]-[hash]',
    jsx: 'automatic',
  },
);
console.log('cli: built dist/attestly.js');
