#!/usr/bin/env node
// The `attestly` command: runs the built CLI (cli/dist/attestly.js; `npm run build` makes it).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../dist/attestly.js', import.meta.url);
if (!existsSync(fileURLToPath(bundle))) {
  console.error('attestly: the CLI is not built yet. Run `npm run build` in the repository first.');
  process.exit(1);
}
await import(bundle.href);
