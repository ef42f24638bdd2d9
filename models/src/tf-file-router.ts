import fs from 'node:fs';
import path from 'node:path';
import { fuseConvolutions, type GraphArtifacts } from './graph-fuse';

interface WeightsManifestGroup {
  paths: string[];
  weights: unknown[];
}

/** The subset of @tensorflow/tfjs-core's `io` the router needs (Human bundles its own type copy). */
interface TfIo {
  registerLoadRouter(router: (url: string | string[]) => unknown): void;
}

/** A graph model's JSON and weight files, read from disk as tfjs `ModelArtifacts`, exactly as they are stored. */
export async function readGraphArtifacts(file: string): Promise<GraphArtifacts> {
  const json = JSON.parse(await fs.promises.readFile(file, 'utf8')) as Record<string, unknown> & {
    weightsManifest: WeightsManifestGroup[];
  };
  const dir = path.dirname(file);
  const weightSpecs: unknown[] = [];
  const buffers: Buffer[] = [];
  for (const group of json.weightsManifest) {
    weightSpecs.push(...group.weights);
    for (const p of group.paths) buffers.push(await fs.promises.readFile(path.join(dir, p)));
  }
  const all = Buffer.concat(buffers);
  return {
    modelTopology: json.modelTopology,
    format: json.format,
    generatedBy: json.generatedBy,
    convertedBy: json.convertedBy,
    signature: json.signature,
    userDefinedMetadata: json.userDefinedMetadata,
    modelInitializer: json.modelInitializer,
    weightSpecs,
    weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
  };
}

/**
 * The WASM backend has no file-system IO handler (only tfjs-node registers one), so `file://` model URLs are
 * served from disk here, each graph's convolution chains fused on the way (graph-fuse.ts). Nothing is fetched: a
 * URL of any other scheme gets no handler and fails to load.
 */
export function registerFileRouter(io: TfIo): void {
  io.registerLoadRouter((url) => {
    const u = Array.isArray(url) ? url[0] : url;
    if (typeof u !== 'string' || !u.startsWith('file://')) return null;
    const file = decodeURIComponent(u.slice('file://'.length));
    return { load: async () => fuseConvolutions(await readGraphArtifacts(file)).artifacts };
  });
}
