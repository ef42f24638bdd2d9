import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The repository (or installed appliance) root: the folder above cli/ that holds apps/api. */
export function projectRoot(): string {
  let dir = here;
  while (!existsSync(path.join(dir, 'apps', 'api', 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find apps/api above ${here}`);
    dir = parent;
  }
  return dir;
}

/** True when running from the esbuild bundle (cli/dist/attestly.js) rather than TypeScript source under tsx. */
export const bundled = !import.meta.url.endsWith('.ts') && !import.meta.url.endsWith('.tsx');
