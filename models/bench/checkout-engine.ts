import path from 'node:path';
import type { createVisionEngine, VisionEngine } from '../src/index';

/**
 * The default engine of a checkout, as it would run there (its graphs, its head), ready to decide: the A/B benches
 * take turns between it and this tree's. The checkout needs node_modules reachable from it.
 */
export async function engineOf(tree: string): Promise<VisionEngine> {
  const entry = path.join(path.resolve(tree), 'models/src/index.ts');
  const engines = (await import(entry)) as { createVisionEngine: typeof createVisionEngine };
  const engine = engines.createVisionEngine({});
  await engine.ready;
  return engine;
}
