/**
 * Load-time fusion of a TensorFlow.js graph's convolution layers, for faceres and the age networks made from it.
 *
 * faceres was converted from Keras without the converter's fusing: each of its 27 convolution layers is a chain of
 * five ops — the convolution, the batch norm's scale (depthwise layers only) and shift, ReLU, then `min(·, 6)` and
 * `max(·, 0)` (ReLU6 as Keras writes it) — and the WASM backend runs each op as a pass of its own over the layer's
 * activations. Folded into one `_FusedConv2D` / `FusedDepthwiseConv2dNative` with a bias and a ReLU6 activation
 * (the form the converter gives Human's other models), XNNPACK applies the bias and the clamp in the convolution's
 * own pass. The arithmetic is the same up to float rounding: the depthwise scale is multiplied into the kernel
 * (`(x ∗ k)·m = x ∗ (k·m)` per channel) instead of into the result. The files on disk, and the manifest's hashes of
 * them, are untouched. The fused node keeps the name of the chain's last op, so every output the engine asks for by
 * name (`conv_pw_11_relu/clip_by_value`, …) still exists; the chain's inner names do not.
 */

export interface GraphNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, unknown>;
  device?: string;
}

export interface WeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype: string; min?: number; scale?: number; original_dtype?: string };
}

/** The parts of tfjs `ModelArtifacts` this pass reads and writes (the rest is passed through). */
export interface GraphArtifacts {
  modelTopology?: unknown;
  weightSpecs?: unknown[];
  weightData?: ArrayBuffer;
  [key: string]: unknown;
}

interface Weight {
  spec: WeightSpec;
  values: Float32Array | Int32Array;
}

const BYTES: Record<string, number> = { float32: 4, int32: 4, bool: 1, float16: 2, uint8: 1, uint16: 2 };

/** IEEE 754 half precision to single (the converter's float16 quantisation). */
function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** Every weight as float32 (or int32) values, dequantised; null when a dtype is one this pass does not handle. */
function decodeWeights(specs: WeightSpec[], data: ArrayBuffer): Map<string, Weight> | null {
  const out = new Map<string, Weight>();
  const view = new DataView(data);
  let offset = 0;
  for (const spec of specs) {
    const size = spec.shape.reduce((a, b) => a * b, 1);
    const stored = spec.quantization?.dtype ?? spec.dtype;
    const bytes = BYTES[stored];
    if (!bytes || (spec.dtype !== 'float32' && spec.dtype !== 'int32')) return null;
    let values: Float32Array | Int32Array;
    if (spec.dtype === 'int32' && !spec.quantization) {
      values = new Int32Array(size);
      for (let i = 0; i < size; i++) values[i] = view.getInt32(offset + 4 * i, true);
    } else {
      values = new Float32Array(size);
      const q = spec.quantization;
      for (let i = 0; i < size; i++) {
        const at = offset + bytes * i;
        if (stored === 'float32') values[i] = view.getFloat32(at, true);
        else if (stored === 'float16') values[i] = halfToFloat(view.getUint16(at, true));
        else {
          const raw = stored === 'uint8' ? view.getUint8(at) : view.getUint16(at, true);
          values[i] = raw * (q?.scale ?? 1) + (q?.min ?? 0);
        }
      }
      if (spec.dtype === 'int32') values = Int32Array.from(values, Math.round);
    }
    out.set(spec.name, { spec: { name: spec.name, shape: spec.shape, dtype: spec.dtype }, values });
    offset += bytes * size;
  }
  return offset === data.byteLength ? out : null;
}

function encodeWeights(weights: Weight[]): { specs: WeightSpec[]; data: ArrayBuffer } {
  const total = weights.reduce((sum, w) => sum + 4 * w.values.length, 0);
  const data = new ArrayBuffer(total);
  let offset = 0;
  for (const w of weights) {
    const target =
      w.values instanceof Int32Array ? new Int32Array(data, offset) : new Float32Array(data, offset);
    target.set(w.values);
    offset += 4 * w.values.length;
  }
  return { specs: weights.map((w) => w.spec), data };
}

/** A node's input name without the output index (`name:0`); control inputs (`^name`) are not data. */
const source = (input: string) => input.replace(/:\d+$/, '');

const base64 = (s: string) => Buffer.from(s).toString('base64');

/**
 * Fuses every `conv → [scale →] shift → ReLU → min 6 → max 0` chain of the graph. Returns the artifacts unchanged
 * (the same object) when the graph has no such chain or weights this pass cannot read, and the number of chains
 * fused.
 */
export function fuseConvolutions(artifacts: GraphArtifacts): { artifacts: GraphArtifacts; fused: number } {
  const topology = artifacts.modelTopology as { node?: GraphNode[] } | undefined;
  const nodes = topology?.node;
  if (!nodes || !artifacts.weightSpecs || !artifacts.weightData) return { artifacts, fused: 0 };
  const weights = decodeWeights(artifacts.weightSpecs as WeightSpec[], artifacts.weightData);
  if (!weights) return { artifacts, fused: 0 };

  const byName = new Map(nodes.map((n) => [n.name, n]));
  const consumers = new Map<string, number>();
  for (const n of nodes)
    for (const i of n.input ?? [])
      if (!i.startsWith('^')) consumers.set(source(i), (consumers.get(source(i)) ?? 0) + 1);
  /** The names of `node`'s data inputs: those computed by the graph, and the constants (weights). */
  const split = (node: GraphNode) => {
    const inputs = (node.input ?? []).filter((i) => !i.startsWith('^')).map(source);
    const consts = inputs.filter((i) => weights.has(i));
    const data = inputs.filter((i) => !weights.has(i));
    return { data, consts };
  };
  const scalar = (name: string | undefined) => {
    const w = name === undefined ? undefined : weights.get(name);
    return w && w.values.length === 1 ? w.values[0] : undefined;
  };
  /** The node feeding `node`, when `node` is its only consumer (so folding it away changes no other path). */
  const inner = (node: GraphNode, op: string): GraphNode | undefined => {
    const { data } = split(node);
    const prev = data.length === 1 ? byName.get(data[0]!) : undefined;
    return prev?.op === op && consumers.get(prev.name) === 1 ? prev : undefined;
  };

  const removed = new Set<string>();
  const replaced = new Map<string, GraphNode>();
  const added: Weight[] = [];
  for (const max of nodes) {
    if (max.op !== 'Maximum' || scalar(split(max).consts[0]) !== 0) continue;
    const min = inner(max, 'Minimum');
    if (!min || scalar(split(min).consts[0]) !== 6) continue;
    const relu = inner(min, 'Relu');
    const add = relu && (inner(relu, 'Add') ?? inner(relu, 'AddV2') ?? inner(relu, 'BiasAdd'));
    const bias = add ? weights.get(split(add).consts[0] ?? '') : undefined;
    if (!add || !bias || bias.spec.shape.length !== 1) continue;
    const channels = bias.values.length;
    const mul = inner(add, 'Mul');
    const conv = mul ? inner(mul, 'DepthwiseConv2dNative') : inner(add, 'Conv2D');
    const kernel = conv && weights.get(split(conv).consts[0] ?? '');
    const convData = conv ? split(conv).data : [];
    if (!conv || !kernel || kernel.spec.shape.length !== 4 || convData.length !== 1) continue;
    // Output channels: [h, w, in, out] for a convolution, [h, w, in, multiplier] (in × multiplier) for a depthwise one.
    const [, , inChannels = 0, last = 0] = kernel.spec.shape;
    if ((mul ? inChannels * last : last) !== channels) continue;
    let kernelName = kernel.spec.name;
    if (mul) {
      const scale = weights.get(split(mul).consts[0] ?? '');
      if (!scale || scale.values.length !== channels) continue;
      // Row-major, the kernel's element i feeds output channel i mod (in × multiplier): scale it by that channel's.
      kernelName = `${kernel.spec.name}/scaled_for_${max.name}`;
      added.push({
        spec: { name: kernelName, shape: kernel.spec.shape, dtype: 'float32' },
        values: Float32Array.from(kernel.values, (v, i) => v * scale.values[i % channels]!),
      });
    }
    replaced.set(max.name, {
      name: max.name,
      op: mul ? 'FusedDepthwiseConv2dNative' : '_FusedConv2D',
      input: [convData[0]!, kernelName, bias.spec.name],
      ...(max.device ? { device: max.device } : {}),
      attr: {
        ...conv.attr,
        fused_ops: { list: { s: [base64('BiasAdd'), base64('Relu6')] } },
        num_args: { i: '1' },
        epsilon: { f: 0 },
      },
    });
    for (const n of [min, relu, add, conv, ...(mul ? [mul] : [])]) removed.add(n.name);
  }
  if (!replaced.size) return { artifacts, fused: 0 };

  const kept = nodes.filter((n) => !removed.has(n.name)).map((n) => replaced.get(n.name) ?? n);
  const addedNames = new Set(added.map((w) => w.spec.name));
  const used = new Set(kept.flatMap((n) => (n.input ?? []).map((i) => source(i.replace(/^\^/, '')))));
  const constNodes = (name: string): GraphNode => ({
    name,
    op: 'Const',
    attr: { dtype: { type: 'DT_FLOAT' }, value: { tensor: { dtype: 'DT_FLOAT' } } },
  });
  // Constants whose only consumers were folded away (the scales, the 6 and 0 of each clamp, unscaled kernels) go.
  const finalNodes = [
    ...kept.filter((n) => n.op !== 'Const' || used.has(n.name) || !weights.has(n.name)),
    ...added.map((w) => constNodes(w.spec.name)),
  ];
  const finalWeights = [
    ...[...weights.values()].filter((w) => used.has(w.spec.name) && !addedNames.has(w.spec.name)),
    ...added,
  ];
  const { specs, data } = encodeWeights(finalWeights);
  return {
    artifacts: {
      ...artifacts,
      modelTopology: { ...(artifacts.modelTopology as object), node: finalNodes },
      weightSpecs: specs,
      weightData: data,
    },
    fused: replaced.size,
  };
}
