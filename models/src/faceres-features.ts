import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { humanModelsDir } from './model-files';

/**
 * faceres (Human's MobileNetV1 descriptor and age network), run by the engine itself rather than by Human so that
 * one pass returns, besides Human's descriptor and age, the intermediate activations the age head reads:
 * block 9 and block 11 carry age information that the identity-trained top layers discard
 * (../shared/research/age-model.md §3.2). The extra outputs are nodes of the same graph, so they cost no second pass.
 */

/** Graph nodes read in one `execute`; their order is the order of `FaceresOutputs`. */
export const FACERES_NODES = [
  'conv_pw_9_relu/clip_by_value',
  'conv_pw_11_relu/clip_by_value',
  'global_pooling/Mean',
  'age_pred/Softmax',
] as const;

/**
 * Layout of `ageFeatures` (3,172 floats): block-9 global average (512), block-11 global average (512), block-11
 * averaged over the four quadrants of its 14×14 map (top-left, top-right, bottom-left, bottom-right; 4 × 512),
 * then faceres's 100-bin age softmax.
 */
export const AGE_FEATURE_LAYOUT = [
  { name: 'pw9_mean', size: 512 },
  { name: 'pw11_mean', size: 512 },
  { name: 'pw11_quadrants', size: 2048 },
  { name: 'age_softmax', size: 100 },
] as const;
export const AGE_FEATURE_SIZE = AGE_FEATURE_LAYOUT.reduce((s, p) => s + p.size, 0);

/** The tfjs calls used here, typed narrowly (Human bundles its own tfjs and type copy). */
export interface FaceresTensor {
  shape: number[];
  dispose(): void;
  data(): Promise<Float32Array | Int32Array | Uint8Array>;
}
export interface FaceresTf {
  loadGraphModel(url: string): Promise<FaceresGraph>;
  tidy<T>(fn: () => T): T;
  expandDims(t: FaceresTensor, axis: number): FaceresTensor;
  mul(a: FaceresTensor, b: number | FaceresTensor): FaceresTensor;
  mean(t: FaceresTensor, axis: number[]): FaceresTensor;
  slice(t: FaceresTensor, begin: number[], size: number[]): FaceresTensor;
  concat(ts: FaceresTensor[], axis: number): FaceresTensor;
  reverse(t: FaceresTensor, axis: number): FaceresTensor;
  scalar(v: number): FaceresTensor;
  image: { resizeBilinear(t: FaceresTensor, size: [number, number], alignCorners: boolean): FaceresTensor };
}
export interface FaceresGraph {
  inputs: { shape?: number[] }[];
  execute(input: FaceresTensor, outputs: string[]): FaceresTensor | FaceresTensor[];
  dispose(): void;
}

export interface FaceresOutputs {
  /** Human's faceres age: the argmax bin interpolated with its larger neighbour (bit-identical to Human's). */
  age: number;
  /** The 1024-d descriptor (bit-identical to Human's `embedding`). */
  descriptor: number[];
  /** See AGE_FEATURE_LAYOUT. */
  ageFeatures: number[];
}

export async function loadFaceres(tf: FaceresTf): Promise<FaceresGraph> {
  return tf.loadGraphModel(pathToFileURL(path.join(humanModelsDir(), 'faceres.json')).href);
}

/** Human's age read-out of the 100-bin softmax (faceres.ts in @vladmandic/human 3.3.6). */
export function humanAgeFromSoftmax(p: ArrayLike<number>): number {
  let idx = 0;
  for (let i = 1; i < p.length; i++) if (p[i]! > p[idx]!) idx = i;
  const before = p[idx - 1];
  const after = p[idx + 1];
  // Human compares p[idx-1] > p[idx+1] with undefined at the ends, which is false: it then uses the bin after.
  return (
    Math.round(
      before !== undefined && after !== undefined && before > after
        ? 10 * idx - 100 * before
        : 10 * idx + 100 * (after ?? NaN),
    ) / 10
  );
}

/**
 * Runs faceres on Human's face crop (`face.tensor` with `detector.return`: [h, w, 3], values 0–1, already
 * rotated upright), preprocessed exactly as Human does it (bilinear resize to the model's input, ×255). Every
 * intermediate tensor is disposed; the crop itself stays the caller's.
 */
export async function runFaceres(
  tf: FaceresTf,
  model: FaceresGraph,
  crop: FaceresTensor,
): Promise<FaceresOutputs> {
  const [, h = 224, w = 224] = model.inputs[0]?.shape ?? [];
  const outputs = tf.tidy(() => {
    const batch = crop.shape.length === 3 ? tf.expandDims(crop, 0) : crop;
    const input = tf.mul(tf.image.resizeBilinear(batch, [h, w], false), 255);
    const [pw9, pw11, descriptor, softmax] = model.execute(input, [...FACERES_NODES]) as FaceresTensor[];
    const [, mh = 14, mw = 14, c = 512] = pw11!.shape;
    const hh = Math.floor(mh / 2);
    const hw = Math.floor(mw / 2);
    const quadrant = (y: number, x: number) => tf.mean(tf.slice(pw11!, [0, y, x, 0], [1, hh, hw, c]), [1, 2]);
    const features = tf.concat(
      [
        tf.mean(pw9!, [1, 2]),
        tf.mean(pw11!, [1, 2]),
        quadrant(0, 0),
        quadrant(0, mw - hw),
        quadrant(mh - hh, 0),
        quadrant(mh - hh, mw - hw),
        softmax!,
      ],
      1,
    );
    return [features, descriptor!, softmax!];
  });
  try {
    const [features, descriptor, softmax] = await Promise.all(outputs.map((t) => t.data()));
    if (features!.length !== AGE_FEATURE_SIZE) {
      throw new Error(`faceres age features have ${features!.length} values, expected ${AGE_FEATURE_SIZE}`);
    }
    return {
      age: humanAgeFromSoftmax(softmax!),
      descriptor: Array.from(descriptor!),
      ageFeatures: Array.from(features!),
    };
  } finally {
    for (const t of outputs) t.dispose();
  }
}
