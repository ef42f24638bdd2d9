import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadAgeCnn } from './age-cnn';
import { ageModelsRead, type AgeModelsRead } from './age-head';
import { loadFaceres, type FaceresGraph, type FaceresTensor, type FaceresTf } from './faceres-features';
import { humanDistDir, humanModelsDir, nodeRequire, wasmDir } from './model-files';
import { registerFileRouter } from './tf-file-router';

/** Minimal typing of the parts of Human the engine uses; Human's bundled d.ts drags in DOM types. */
export type HumanPoint = number[];
export interface HumanFace {
  score: number;
  box: [number, number, number, number];
  mesh: HumanPoint[];
  age?: number;
  embedding?: number[];
  /** The aligned face crop ([h, w, 3], 0–1) when the pass asks for it (`detector.return`); the caller disposes it. */
  tensor?: FaceresTensor;
  real?: number;
  live?: number;
  rotation?: { angle: { roll: number; yaw: number; pitch: number } } | null;
}
export interface HumanTensor {
  dispose(): void;
}
export interface HumanTf {
  tensor3d(
    values: Uint8Array | Float32Array,
    shape: [number, number, number],
    dtype: 'int32' | 'float32',
  ): HumanTensor;
  expandDims(t: HumanTensor, axis: number): HumanTensor;
  getBackend(): string;
  memory(): { numTensors: number; numBytes: number };
  io: { registerLoadRouter(router: (url: string | string[]) => unknown): void };
}
export interface HumanInstance {
  tf: HumanTf;
  load(): Promise<void>;
  detect(
    input: HumanTensor,
    config?: Record<string, unknown>,
  ): Promise<{ face: HumanFace[]; error?: string | null }>;
}

export type BackendPreference = 'auto' | 'wasm' | 'tensorflow';

export interface HumanRuntime {
  human: HumanInstance;
  backend: string;
  /** faceres, loaded once per worker beside Human's own models. */
  faceres: FaceresGraph;
  /**
   * The age networks (age-cnn.ts), loaded when the engine's age head reads them; empty otherwise, and faceres then
   * gives the age.
   */
  ageCnn: FaceresGraph[];
  /**
   * Whether the age head also reads faceres (its descriptor and age) beside the age networks: faceres then runs on
   * every face whose age is wanted, not only where faces are compared.
   */
  ageReadsFaceres: boolean;
  /** Whether the age networks also read the mirror image of the crop (age-cnn.ts). */
  ageNetworksMirror: boolean;
}

/*
 * Human merges a per-call config into its own and keeps it, so every pass states each switch it relies on.
 * faceres is never run by Human: the passes that need it ask for the face crop (`detector.return`) and the engine
 * runs faceres itself with extra outputs (faceres-features.ts), in the same single pass.
 */
/** Landmark-only pass for video frames: detector + mesh + iris is ~45 ms against ~150 ms for the full set. */
export const landmarkPassConfig = {
  face: {
    detector: { return: false },
    description: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
  },
};
/** Detector + mesh + face crop for faceres, without the passive cues: the age of video frames, matching. */
export const describePassConfig = {
  face: {
    detector: { return: true },
    description: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
  },
};
export const fullPassConfig = {
  face: {
    detector: { return: true },
    description: { enabled: false },
    antispoof: { enabled: true },
    liveness: { enabled: true },
  },
};

function humanConfig(backend: 'wasm' | 'tensorflow') {
  return {
    backend,
    wasmPath: wasmDir(),
    modelBasePath: pathToFileURL(humanModelsDir()).href + '/',
    debug: false,
    async: false,
    warmup: 'none',
    // Every image is a separate person: Human's frame-to-frame result cache must never reuse a previous face.
    cacheSensitivity: 0,
    cacheModels: false,
    validateModels: false,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: 5, minConfidence: 0.5, return: false },
      mesh: { enabled: true },
      iris: { enabled: true },
      attention: { enabled: false },
      // faceres runs in the engine (faceres-features.ts), not in Human.
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: true },
      liveness: { enabled: true },
      gear: { enabled: false },
    },
  };
}

type HumanModule = { Human: new (config: unknown) => HumanInstance };

/**
 * tfjs-node when an operator installed it (it downloads a native library, so it is never a hard dependency),
 * the SIMD WASM backend otherwise. Loaded by name so bundlers and the type checker leave it alone.
 */
async function loadHumanModule(
  preference: BackendPreference,
): Promise<{ mod: HumanModule; backend: 'wasm' | 'tensorflow' }> {
  const require = nodeRequire();
  if (preference !== 'wasm') {
    try {
      const tfjsNode = '@tensorflow/tfjs-node';
      await import(tfjsNode);
      return {
        mod: require(path.join(humanDistDir(), 'human.node.js')) as HumanModule,
        backend: 'tensorflow',
      };
    } catch (error) {
      if (preference === 'tensorflow') throw error;
    }
  }
  return { mod: require(path.join(humanDistDir(), 'human.node-wasm.js')) as HumanModule, backend: 'wasm' };
}

export async function createHumanRuntime(
  preference: BackendPreference = 'auto',
  // What the engine's age head reads (age-head.ts); faceres alone when not given, for the tools that read no age
  // network (crops, attack clips). The engine always passes its head's (vision-engine.ts).
  models: AgeModelsRead = ageModelsRead(),
): Promise<HumanRuntime> {
  const { mod, backend } = await loadHumanModule(preference);
  const human = new mod.Human(humanConfig(backend));
  registerFileRouter(human.tf.io);
  await human.load();
  const faceres = await loadFaceres(human.tf as unknown as FaceresTf);
  const ageCnn = models.ageNetworks.length
    ? await loadAgeCnn(human.tf as unknown as FaceresTf, models.ageNetworks)
    : [];
  return {
    human,
    backend: backend === 'wasm' ? 'wasm-simd' : 'tensorflow',
    faceres,
    ageCnn,
    ageReadsFaceres: models.ageReadsFaceres,
    ageNetworksMirror: models.ageNetworksMirror,
  };
}
