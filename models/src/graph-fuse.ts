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

/** A weight as stored: its spec and where its bytes lie in the weight data. */
interface StoredWeight {
  spec: WeightSpec;
  offset: number;
  bytes: number;
}

/** A weight this pass computed (a scaled kernel), stored as float32. */
interface NewWeight {
  spec: WeightSpec;
  values: Float32Array;
}

const BYTES: Record<string, number> = { float32: 4, int32: 4, bool: 1, float16: 2, uint8: 1, uint16: 2 };

/** IEEE 754 half precision to single (the converter's float16 quantisation), as a table of all 65,536 values. */
let halfTable: Float32Array | null = null;
function halfToFloatTable(): Float32Array {
  if (halfTable) return halfTable;
  halfTable = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const fraction = h & 0x3ff;
    halfTable[h] =
      exponent === 0
        ? sign * 2 ** -14 * (fraction / 1024)
        : exponent === 0x1f
          ? fraction
            ? NaN
            : sign * Infinity
          : sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
  }
  return halfTable;
}

/** Where each weight's bytes are; null when the specs do not add up to the data, or use a dtype not handled here. */
function indexWeights(specs: WeightSpec[], data: ArrayBuffer): Map<string, StoredWeight> | null {
  const out = new Map<string, StoredWeight>();
  let offset = 0;
  for (const spec of specs) {
    const width = BYTES[spec.quantization?.dtype ?? spec.dtype];
    if (!width) return null;
    const bytes = width * spec.shape.reduce((a, b) => a * b, 1);
    out.set(spec.name, { spec, offset, bytes });
    offset += bytes;
  }
  return offset === data.byteLength ? out : null;
}

/** One weight's values as float32, dequantised (little-endian, as the format and every host are). */
function readWeight(weight: StoredWeight, data: ArrayBuffer): Float32Array | null {
  const { spec } = weight;
  const stored = spec.quantization?.dtype ?? spec.dtype;
  if (spec.dtype !== 'float32') return null;
  // A copy of the weight's bytes, aligned for a typed array.
  const raw = data.slice(weight.offset, weight.offset + weight.bytes);
  if (stored === 'float32') return new Float32Array(raw);
  const codes = stored === 'float16' || stored === 'uint16' ? new Uint16Array(raw) : new Uint8Array(raw);
  const values = new Float32Array(codes.length);
  if (stored === 'float16') {
    const table = halfToFloatTable();
    for (let i = 0; i < codes.length; i++) values[i] = table[codes[i]!]!;
  } else {
    const [scale, min] = [spec.quantization?.scale ?? 1, spec.quantization?.min ?? 0];
    for (let i = 0; i < codes.length; i++) values[i] = codes[i]! * scale + min;
  }
  return values;
}

/** The kept weights as they were stored (quantisation included), then the new ones as float32. */
function joinWeights(
  kept: StoredWeight[],
  added: NewWeight[],
  data: ArrayBuffer,
): { specs: WeightSpec[]; data: ArrayBuffer } {
  const total =
    kept.reduce((sum, w) => sum + w.bytes, 0) + added.reduce((sum, w) => sum + 4 * w.values.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const w of kept) {
    out.set(new Uint8Array(data, w.offset, w.bytes), offset);
    offset += w.bytes;
  }
  for (const w of added) {
    out.set(new Uint8Array(w.values.buffer, w.values.byteOffset, w.values.byteLength), offset);
    offset += w.values.byteLength;
  }
  return { specs: [...kept.map((w) => w.spec), ...added.map((w) => w.spec)], data: out.buffer };
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
  // Most graphs (Human's own) have no such chain: say so before reading any weight.
  const ops = new Map(nodes.map((n) => [n.name, n.op]));
  const clamps = nodes.some(
    (n) => n.op === 'Maximum' && n.input?.some((i) => ops.get(source(i)) === 'Minimum'),
  );
  if (!clamps) return { artifacts, fused: 0 };
  const weightData = artifacts.weightData;
  const weights = indexWeights(artifacts.weightSpecs as WeightSpec[], weightData);
  if (!weights) return { artifacts, fused: 0 };
  // Only the weights a fold reads are decoded (the clamps' bounds, biases, depthwise scales and kernels).
  const decoded = new Map<string, Float32Array | null>();
  const valuesOf = (name: string | undefined): Float32Array | undefined => {
    const weight = name === undefined ? undefined : weights.get(name);
    if (!weight) return undefined;
    if (!decoded.has(weight.spec.name)) decoded.set(weight.spec.name, readWeight(weight, weightData));
    return decoded.get(weight.spec.name) ?? undefined;
  };

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
    const values = valuesOf(name);
    return values?.length === 1 ? values[0] : undefined;
  };
  /** The node feeding `node`, when `node` is its only consumer (so folding it away changes no other path). */
  const inner = (node: GraphNode, op: string): GraphNode | undefined => {
    const { data } = split(node);
    const prev = data.length === 1 ? byName.get(data[0]!) : undefined;
    return prev?.op === op && consumers.get(prev.name) === 1 ? prev : undefined;
  };

  const removed = new Set<string>();
  const replaced = new Map<string, GraphNode>();
  const added: NewWeight[] = [];
  for (const max of nodes) {
    if (max.op !== 'Maximum' || scalar(split(max).consts[0]) !== 0) continue;
    const min = inner(max, 'Minimum');
    if (!min || scalar(split(min).consts[0]) !== 6) continue;
    const relu = inner(min, 'Relu');
    const add = relu && (inner(relu, 'Add') ?? inner(relu, 'AddV2') ?? inner(relu, 'BiasAdd'));
    const bias = add ? weights.get(split(add).consts[0] ?? '') : undefined;
    if (!add || !bias || bias.spec.shape.length !== 1 || !valuesOf(bias.spec.name)) continue;
    const channels = bias.spec.shape[0]!;
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
      const scale = valuesOf(split(mul).consts[0]);
      const values = valuesOf(kernel.spec.name);
      if (scale?.length !== channels || !values) continue;
      // Row-major, the kernel's element i feeds output channel i mod (in × multiplier): scale it by that channel's.
      kernelName = `${kernel.spec.name}/scaled_for_${max.name}`;
      const scaled = new Float32Array(values.length);
      for (let i = 0; i < values.length; i++) scaled[i] = values[i]! * scale[i % channels]!;
      added.push({ spec: { name: kernelName, shape: kernel.spec.shape, dtype: 'float32' }, values: scaled });
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
  const keptWeights = [...weights.values()].filter((w) => used.has(w.spec.name));
  const { specs, data } = joinWeights(keptWeights, added, weightData);
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
