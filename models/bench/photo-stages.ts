/**
 * Where a photo decision's time goes, stage by stage, on the main thread (no worker pool): decode, Human's full pass
 * (detector, mesh, iris, antispoof, liveness), network a, faceres, the quality measures, and the describe pass that
 * video frames and face matching use. The vision bench's inputs, the four FairFace fixtures, six rounds; the first
 * round warms the kernels and is left out. Prints the median of each stage in ms.
 *   npx tsx models/bench/photo-stages.ts
 */
import fs from 'node:fs';
import { runAgeCnn } from '../src/age-cnn';
import { ageModelsRead } from '../src/age-head';
import { detectFaces, measureQuality } from '../src/face-observer';
import { runFaceres, type FaceresTf } from '../src/faceres-features';
import { createHumanRuntime } from '../src/human-runtime';
import { decodeImage } from '../src/image-decode';
import { fixture, fixturesDir } from '../test/media';

const runtime = await createHumanRuntime(
  'wasm',
  ageModelsRead('faceres-descriptor-1024+faceres-age+age-cnn-a'),
);
const tf = runtime.human.tf as unknown as FaceresTf;
const photos = fs
  .readdirSync(fixturesDir)
  .filter((f) => f.endsWith('.jpg'))
  .map((f) => fixture(f));
const times: Record<string, number[]> = {};
const rounds = 6;
for (let round = 0; round < rounds; round++)
  for (const photo of photos) {
    let started = performance.now();
    const lap = (stage: string) => {
      if (round > 0) (times[stage] ??= []).push(performance.now() - started);
      started = performance.now();
    };
    const image = await decodeImage(photo);
    lap('decode');
    const faces = await detectFaces(runtime.human, image, 'full');
    lap('human full pass');
    const face = faces[0];
    try {
      if (!face?.tensor) throw new Error('no face in a bench fixture');
      await runAgeCnn(tf, runtime.ageCnn, face.tensor, false);
      lap('network a');
      await runFaceres(tf, runtime.faceres, face.tensor);
      lap('faceres');
      await measureQuality(image, face);
      lap('quality');
      for (const f of await detectFaces(runtime.human, image, 'describe')) f.tensor?.dispose();
      lap('describe pass');
    } finally {
      for (const f of faces) f.tensor?.dispose();
    }
  }
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
for (const [stage, values] of Object.entries(times))
  console.log(`${stage.padEnd(16)} ${median(values).toFixed(1).padStart(6)} ms`);
