import { createRequire } from 'node:module';
import path from 'node:path';

// Resolved at run time (not through `import`) so the API's esbuild bundle keeps reading the model files and the
// node-wasm build of Human from node_modules on disk instead of inlining them.
const require = createRequire(import.meta.url);

/** Human's package exports only its tfjs-node build; its other builds live beside it in dist/. */
export function humanDistDir(): string {
  return path.dirname(require.resolve('@vladmandic/human'));
}

export function humanPackageDir(): string {
  return path.dirname(humanDistDir());
}

export function humanModelsDir(): string {
  return path.join(humanPackageDir(), 'models');
}

export function packageDir(name: string): string {
  // Walk up from the package's entry point: not every package exports ./package.json.
  let dir = path.dirname(require.resolve(name));
  while (path.basename(dir) !== name.split('/').pop() && dir !== path.dirname(dir)) dir = path.dirname(dir);
  return dir;
}

export function wasmDir(): string {
  return path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist') + path.sep;
}

/** Model files that the engine loads, relative to the package that ships them. */
export const HUMAN_MODELS = ['blazeface', 'facemesh', 'iris', 'faceres', 'antispoof', 'liveness'] as const;

export function nodeRequire(): NodeRequire {
  return require;
}
