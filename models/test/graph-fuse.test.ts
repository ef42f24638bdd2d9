import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGE_CNN_OUTPUT, ageCnnDir } from '../src/age-cnn';
import {
  FACERES_NODES,
  type FaceresGraph,
  type FaceresTensor,
  type FaceresTf,
} from '../src/faceres-features';
import { fuseConvolutions, type GraphArtifacts, type GraphNode, type WeightSpec } from '../src/graph-fuse';
import { createHumanRuntime } from '../src/human-runtime';
import { humanModelsDir } from '../src/model-files';
import { readGraphArtifacts } from '../src/tf-file-router';
import { fixture } from './media';

type Tf = FaceresTf & {
  tensor4d(v: Float32Array, shape: number[]): FaceresTensor;
  loadGraphModel(handler: { load(): Promise<GraphArtifacts> }): Promise<FaceresGraph>;
};

const ops = (a: GraphArtifacts) => {
  const count: Record<string, number> = {};
  for (const n of (a.modelTopology as { node: GraphNode[] }).node) count[n.op] = (count[n.op] ?? 0) + 1;
  return count;
};

/** The four FairFace fixtures' production crops at 160 px (age-cnn.test.ts), as a batch of 0–255 values. */
const crops = fixture('age-crops.u8');

describe('convolution chains fused at load (graph-fuse.ts)', () => {
  let tf: Tf;
  beforeAll(async () => {
    // Human's tfjs and WASM backend, as the engine runs them (one runtime per thread: it registers the router).
    tf = (await createHumanRuntime('wasm')).human.tf as unknown as Tf;
  }, 120_000);

  /** Each named output of both graphs on the fixture crops resized to `size`: the largest absolute difference. */
  async function worstDifference(
    raw: GraphArtifacts,
    fused: GraphArtifacts,
    outputs: string[],
    size: number,
  ): Promise<number[]> {
    const [a, b] = await Promise.all([raw, fused].map((x) => tf.loadGraphModel({ load: async () => x })));
    const n = crops.length / (160 * 160 * 3);
    const worst = outputs.map(() => 0);
    for (let i = 0; i < n; i++) {
      const input = tf.tidy(() =>
        tf.image.resizeBilinear(
          tf.tensor4d(
            Float32Array.from(crops.subarray(i * 160 * 160 * 3, (i + 1) * 160 * 160 * 3)),
            [1, 160, 160, 3],
          ),
          [size, size],
          false,
        ),
      );
      const results = [a!, b!].map((m) => m.execute(input, outputs) as FaceresTensor | FaceresTensor[]);
      const [ya, yb] = await Promise.all(
        results.map((r) => Promise.all((Array.isArray(r) ? r : [r]).map((t) => t.data()))),
      );
      for (const [k] of outputs.entries())
        for (let j = 0; j < ya![k]!.length; j++)
          worst[k] = Math.max(worst[k]!, Math.abs(ya![k]![j]! - yb![k]![j]!));
      for (const t of [input, ...results.flat()]) t.dispose();
    }
    a!.dispose();
    b!.dispose();
    return worst;
  }

  it("fuses faceres's 27 layers into single ops and gives its outputs to float rounding", async () => {
    const raw = await readGraphArtifacts(path.join(humanModelsDir(), 'faceres.json'));
    const { artifacts, fused } = fuseConvolutions(raw);
    expect(fused).toBe(27);
    const count = ops(artifacts);
    expect(count._FusedConv2D).toBe(14);
    expect(count.FusedDepthwiseConv2dNative).toBe(13);
    for (const gone of ['Conv2D', 'DepthwiseConv2dNative', 'Relu', 'Minimum', 'Maximum', 'Mul'])
      expect(count[gone]).toBeUndefined();
    // The weights left are stored as they were (float16), each once; the 13 scaled depthwise kernels are new, as
    // float32; the scales, the unscaled kernels and the clamps' bounds are gone.
    const specs = artifacts.weightSpecs as WeightSpec[];
    const width = (w: WeightSpec) => (w.quantization?.dtype === 'float16' ? 2 : 4);
    const bytes = specs.reduce((s, w) => s + width(w) * w.shape.reduce((a, b) => a * b, 1), 0);
    expect(artifacts.weightData!.byteLength).toBe(bytes);
    expect(new Set(specs.map((w) => w.name)).size).toBe(specs.length);
    expect(specs.filter((w) => w.name.includes('/scaled_for_') && !w.quantization)).toHaveLength(13);
    expect(specs.length).toBe((raw.weightSpecs as WeightSpec[]).length - 13 - 13 - 2 * 27 + 13);
    // The outputs the engine reads by name, on four real faces: the blocks the rich head reads (activations up to
    // 6), the descriptor and the age softmax.
    const worst = await worstDifference(raw, artifacts, [...FACERES_NODES], 224);
    expect(worst[0]).toBeLessThan(2e-4);
    expect(worst[1]).toBeLessThan(2e-4);
    expect(worst[2]).toBeLessThan(5e-5);
    expect(worst[3]).toBeLessThan(5e-6);
    // …and not by accident: the fused graph did compute something.
    expect(worst.some((w) => w > 0)).toBe(true);
  }, 120_000);

  it('fuses the age networks made from faceres the same way (age distribution to 5e-6)', async () => {
    const raw = await readGraphArtifacts(path.join(ageCnnDir(), 'faceres-age-a.json'));
    const { artifacts, fused } = fuseConvolutions(raw);
    expect(fused).toBe(27);
    const [worst] = await worstDifference(raw, artifacts, [AGE_CNN_OUTPUT], 160);
    expect(worst).toBeLessThan(5e-6);
  }, 120_000);

  it('leaves a graph that is already fused, or a clamp other than ReLU6, as it is', async () => {
    const blazeface = await readGraphArtifacts(path.join(humanModelsDir(), 'blazeface.json'));
    expect(fuseConvolutions(blazeface)).toEqual({ artifacts: blazeface, fused: 0 });

    // conv → shift → ReLU → min 5 → max 0 is a ReLU5, which no fused activation computes.
    const weights: [string, number[], number[]][] = [
      ['k', [1, 1, 1, 1], [2]],
      ['b', [1], [0.5]],
      ['hi', [], [5]],
      ['lo', [], [0]],
    ];
    const node = (name: string, op: string, ...input: string[]): GraphNode => ({ name, op, input });
    const tiny: GraphArtifacts = {
      modelTopology: {
        node: [
          node('x', 'Placeholder'),
          ...weights.map(([name]) => node(name, 'Const')),
          node('conv', 'Conv2D', 'x', 'k'),
          node('add', 'Add', 'conv', 'b'),
          node('relu', 'Relu', 'add'),
          node('min', 'Minimum', 'relu', 'hi'),
          node('max', 'Maximum', 'min', 'lo'),
        ],
      },
      weightSpecs: weights.map(([name, shape]) => ({ name, shape, dtype: 'float32' })),
      weightData: new Float32Array(weights.flatMap(([, , v]) => v)).buffer,
    };
    expect(fuseConvolutions(tiny).fused).toBe(0);
    // The same chain clamped at 6 is fused, keeping the last op's name.
    weights[2]![2] = [6];
    tiny.weightData = new Float32Array(weights.flatMap(([, , v]) => v)).buffer;
    const { artifacts, fused } = fuseConvolutions(tiny);
    expect(fused).toBe(1);
    const nodes = (artifacts.modelTopology as { node: GraphNode[] }).node;
    expect(nodes.map((n) => n.name)).toEqual(['x', 'k', 'b', 'max']);
    expect(nodes.at(-1)).toMatchObject({ op: '_FusedConv2D', input: ['x', 'k', 'b'] });
  });
});
