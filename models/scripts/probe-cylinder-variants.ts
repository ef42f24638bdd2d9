/**
 * The cylinder warp in shapes the attack set never makes (make-liveness-attacks.ts wraps every face on a cylinder
 * of radius 0.55 face widths about the face's centre line): radius 0.40 and 0.80 widths, and the axis 0.15 widths
 * off the centre line, 20 clips each from faces-dev adults of the TUNING half. Prints, per variant, how many clips
 * the motions accept, how many the whole check accepts, how many the nose-parallax veto alone refused and the
 * highest nose gains: whether the veto holds beyond the recipe its floor was chosen beside.
 *   npx tsx models/scripts/probe-cylinder-variants.ts [--per-variant 20]
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { detectFaces, subjectFaces } from '../src/face-observer';
import { createHumanRuntime } from '../src/human-runtime';
import { createVisionEngine } from '../src/index';
import { assessConsistency, defaultConsistencyOptions, videoTrack } from '../src/liveness-3d';
import { assessActiveLiveness } from '../src/liveness-signals';
import { argValue, readCsv } from './lib/csv';
import { canvasFromPhoto, encodeFrames, geometryFromMesh, renderAttack } from './lib/liveness-attacks';

const perVariant = Number(argValue(process.argv.slice(2), '--per-variant') ?? 20);
const data = path.resolve('../shared/data');
if (!fs.existsSync(path.join(data, 'faces-dev', 'labels.csv'))) {
  console.error(`${data}/faces-dev not found: the probe needs ../shared/data; skipping.`);
  process.exit(0);
}
// The tuning half as make-liveness-attacks.ts splits it (a hash of each face's path).
const tuning = readCsv(path.join(data, 'faces-dev', 'labels.csv'))
  .filter((r) => Number(r.age) >= 18)
  .map((r) => path.join('faces-dev', r.file!))
  .filter((f) => crypto.createHash('sha256').update(f).digest()[0]! % 2 === 0);
const variants = [
  { name: 'radius 0.40 widths, 40°', radius: 0.4, axis: 0, degrees: 40 },
  { name: 'radius 0.80 widths, 35°', radius: 0.8, axis: 0, degrees: 35 },
  { name: 'axis 0.15 widths off centre, 35°', radius: 0.55, axis: 0.15, degrees: 35 },
];
const runtime = await createHumanRuntime('wasm');
const engine = createVisionEngine({ workers: 2 });
await engine.ready;
let next = 0;
try {
  for (const v of variants) {
    const tally = { clips: 0, motions: 0, accepted: 0, refusedByVetoAlone: 0, highestGains: [] as number[] };
    while (tally.clips < perVariant) {
      const file = tuning[next++ % tuning.length]!;
      const image = await canvasFromPhoto(fs.readFileSync(path.join(data, file)), 320, true);
      const found = subjectFaces(await detectFaces(runtime.human, image, 'landmarks'));
      if (found.length !== 1 || found[0]!.mesh.length < 468) continue;
      const g = geometryFromMesh(found[0]!.mesh, image);
      // renderAttack wraps on a radius of 0.55 × geometry.width about geometry.cx; the eyes keep their places.
      const geometry = { ...g, width: (g.width * v.radius) / 0.55, cx: g.cx + v.axis * g.width };
      const seed = crypto.createHash('sha256').update(`${v.name}:${tally.clips}`).digest().readUInt32BE(0);
      const frames = renderAttack({ kind: 'cylinder_turn', seed, amplitude: v.degrees }, [
        { image, geometry },
      ]);
      tally.clips++;
      const track = videoTrack(await engine.observeVideo(encodeFrames(frames)));
      if (!assessActiveLiveness(track).passed) continue;
      tally.motions++;
      const withVeto = assessConsistency(track);
      const without = assessConsistency(track, { ...defaultConsistencyOptions, minNoseParallax: null });
      if (withVeto.noseParallax)
        tally.highestGains.push(Math.round(withVeto.noseParallax.gain * 1000) / 1000);
      if (withVeto.passed) tally.accepted++;
      if (without.passed && !withVeto.passed) tally.refusedByVetoAlone++;
    }
    tally.highestGains = tally.highestGains.sort((a, b) => b - a).slice(0, 3);
    console.log(JSON.stringify({ variant: v.name, ...tally }));
  }
} finally {
  await engine.close();
}
