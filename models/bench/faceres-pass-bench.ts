/**
 * What the extra faceres outputs cost (issue 22): on one thread, interleaved, the same fixture faces through
 * (a) Human's own faceres (descriptor and age only, as before issue 22) and (b) the engine's faceres pass with the
 * block-9/11 pooled activations and the age softmax. Minimum and median of N each; the minimum is the figure that
 * survives a busy machine.
 *   npx tsx models/bench/faceres-pass-bench.ts [reps]
 */
import { decodeImage } from '../src/image-decode';
import { detectFaces, observeSubject } from '../src/face-observer';
import { createHumanRuntime, type HumanTensor } from '../src/human-runtime';
import { adultFemale30s, adultMale40s, fixture } from '../test/media';

const reps = Number(process.argv[2] ?? 15);
const runtime = await createHumanRuntime('wasm');
const { human } = runtime;
const humanFaceres = {
  face: {
    detector: { return: false },
    description: { enabled: true },
    antispoof: { enabled: false },
    liveness: { enabled: false },
  },
};
await (human as unknown as { load(c: unknown): Promise<void> }).load(humanFaceres);
const images = await Promise.all(
  [adultMale40s, adultFemale30s].map((f) => decodeImage(new Uint8Array(fixture(f)))),
);
const timeA = async (i: number) => {
  const image = images[i % images.length]!;
  const t3 = human.tf.tensor3d(Float32Array.from(image.data), [image.height, image.width, 3], 'float32');
  const input: HumanTensor = human.tf.expandDims(t3, 0);
  t3.dispose();
  const t = performance.now();
  await human.detect(input, humanFaceres);
  const ms = performance.now() - t;
  input.dispose();
  return ms;
};
const timeB = async (i: number) => {
  const image = images[i % images.length]!;
  const t = performance.now();
  // detectFaces + faceres as observeSubject runs them; observeSubject also measures quality, so time the parts.
  const faces = await detectFaces(human, image, 'describe');
  const { runFaceres } = await import('../src/faceres-features');
  await runFaceres(human.tf as never, runtime.faceres, faces[0]!.tensor!);
  const ms = performance.now() - t;
  for (const f of faces) f.tensor?.dispose();
  return ms;
};
await observeSubject(runtime, images[0]!, 'describe');
await timeA(0);
await timeB(0);
const a: number[] = [];
const b: number[] = [];
for (let i = 0; i < reps; i++) {
  a.push(await timeA(i));
  b.push(await timeB(i));
}
const stat = (v: number[]) => {
  const s = [...v].sort((x, y) => x - y);
  return { min: Math.round(s[0]!), p50: Math.round(s[Math.floor(s.length / 2)]!) };
};
const r = { reps, human_faceres_pass_ms: stat(a), engine_faceres_pass_ms: stat(b) };
console.log(JSON.stringify(r));
