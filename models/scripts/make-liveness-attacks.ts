/**
 * Generates presentation-attack clips for `npm run eval:liveness` (see lib/liveness-attacks.ts for the kinds):
 *   npm run make:liveness-attacks -- [--per-kind 80] [--tuning-per-kind N] [--out models/.cache/liveness-attacks]
 *     [--data ../shared/data] [--kinds cylinder_turn,piecewise_turn]
 * Faces come from ../shared/data faces-dev, spoof and faces-aaf. Every face is assigned once, by a hash of its
 * path, to the TUNING half or the REPORTING half; clips of the tuning half only ever use tuning faces (a cross-fade
 * takes both its faces from the same half), so thresholds chosen on one half are reported on faces they never saw.
 * Writes `<kind>_<split>_<nnn>.mp4` (320 px, 10 fps, 5 s, H.264) and `manifest.csv` into the (git-ignored) out dir.
 * `--tuning-per-kind N` stops making tuning clips after N of a kind (the thresholds are chosen on those) while
 * reporting clips go on to `--per-kind / 2`: a larger reporting half tightens APCER's bound without re-tuning.
 * `--kinds a,b` makes only those kinds, each clip with the face and seed it has in the whole set.
 * The images are research-use only and the clips are derived from them: they stay in the cache, never in git.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { detectFaces, subjectFaces } from '../src/face-observer';
import { createHumanRuntime } from '../src/human-runtime';
import { argValue, readCsv } from './lib/csv';
import {
  ATTACK_KINDS,
  canvasFromPhoto,
  encodeFrames,
  geometryFromMesh,
  renderAttack,
  type FaceGeometry,
  type Rgb,
} from './lib/liveness-attacks';

const args = process.argv.slice(2);
const data = path.resolve(argValue(args, '--data') ?? '../shared/data');
const out = path.resolve(argValue(args, '--out') ?? 'models/.cache/liveness-attacks');
const perKind = Number(argValue(args, '--per-kind') ?? 80);
const size = Number(argValue(args, '--size') ?? 320);
const tuningPerKind = Number(argValue(args, '--tuning-per-kind') ?? Infinity);
const kinds = argValue(args, '--kinds')?.split(',') ?? [...ATTACK_KINDS];
const unknownKinds = kinds.filter((kind) => !(ATTACK_KINDS as readonly string[]).includes(kind));
if (unknownKinds.length) {
  console.error(`unknown attack kind(s): ${unknownKinds.join(', ')} (kinds: ${ATTACK_KINDS.join(', ')})`);
  process.exit(2);
}

if (!fs.existsSync(path.join(data, 'faces-dev', 'labels.csv'))) {
  console.error(`${data}/faces-dev not found: the attack set needs ../shared/data; skipping.`);
  process.exit(0);
}

/** Tuning or reporting half, fixed per face by a hash of its path (stable across runs and machines). */
function splitOf(file: string): 'tune' | 'report' {
  return crypto.createHash('sha256').update(file).digest()[0]! % 2 === 0 ? 'tune' : 'report';
}

interface Face {
  file: string;
  tight: boolean;
}
const faces: Face[] = [];
for (const r of readCsv(path.join(data, 'faces-dev', 'labels.csv')))
  faces.push({ file: path.join('faces-dev', r.file!), tight: true });
for (const r of readCsv(path.join(data, 'spoof', 'labels.csv')))
  if (r.label === 'live') faces.push({ file: path.join('spoof', r.file!), tight: false });
const aaf = readCsv(path.join(data, 'faces-aaf', 'labels.csv')).filter((r) => Number(r.age) >= 18);
for (const r of aaf.filter((_, i) => i % 5 === 0))
  faces.push({ file: path.join('faces-aaf', r.file!), tight: true });

// A fixed shuffle so each kind draws different faces.
const order = faces
  .map((f) => ({ f, k: crypto.createHash('sha256').update(`order:${f.file}`).digest().readUInt32BE(0) }))
  .sort((a, b) => a.k - b.k)
  .map((x) => x.f);
const halves = {
  tune: order.filter((f) => splitOf(f.file) === 'tune'),
  report: order.filter((f) => splitOf(f.file) === 'report'),
};

fs.mkdirSync(out, { recursive: true });
const runtime = await createHumanRuntime('wasm');
const prepared = new Map<string, { image: Rgb; geometry: FaceGeometry } | null>();
async function prepare(face: Face) {
  if (prepared.has(face.file)) return prepared.get(face.file)!;
  const image = await canvasFromPhoto(fs.readFileSync(path.join(data, face.file)), size, face.tight);
  const found = subjectFaces(await detectFaces(runtime.human, image, 'landmarks'));
  const value =
    found.length === 1 && found[0]!.mesh.length >= 468
      ? { image, geometry: geometryFromMesh(found[0]!.mesh, image) }
      : null;
  prepared.set(face.file, value);
  return value;
}

// The manifest grows clip by clip and kinds are interleaved, so an evaluation can start on a partial set; clips
// already on disk are kept (everything is deterministic: same faces, same seeds).
const manifestFile = path.join(out, 'manifest.csv');
fs.writeFileSync(manifestFile, 'file,kind,split,face,face2,seed\n');
const cursor = { tune: 0, report: 0 };
const next = async (split: 'tune' | 'report') => {
  for (;;) {
    const list = halves[split];
    const face = list[cursor[split]++ % list.length]!;
    const p = await prepare(face);
    if (p) return { face, p };
  }
};
let made = 0;
const t0 = performance.now();
for (let i = 0; i < perKind; i++) {
  for (const kind of ATTACK_KINDS) {
    const split = i % 2 === 0 ? 'tune' : 'report';
    if (split === 'tune' && i / 2 >= tuningPerKind) continue;
    const a = await next(split);
    const b = kind === 'cross_fade' ? await next(split) : null;
    // A kind left out still draws its faces, so every clip made has the face and seed it has in the whole set.
    if (!kinds.includes(kind)) continue;
    const seed = crypto.createHash('sha256').update(`${kind}:${i}`).digest().readUInt32BE(0);
    const name = `${kind}_${split}_${String(i).padStart(3, '0')}.mp4`;
    const file = path.join(out, name);
    if (!fs.existsSync(file)) {
      const frames = renderAttack({ kind, seed }, b ? [a.p, b.p] : [a.p]);
      fs.writeFileSync(file + '.part', encodeFrames(frames));
      fs.renameSync(file + '.part', file);
    }
    fs.appendFileSync(
      manifestFile,
      [name, kind, split, a.face.file, b?.face.file ?? '', seed].join(',') + '\n',
    );
    made++;
  }
  if ((i + 1) % 10 === 0)
    console.log(`${made} clips (${Math.round((performance.now() - t0) / 1000)} s so far)`);
}
console.log(
  `${made} attack clips in ${out} (faces: ${halves.tune.length} tuning, ${halves.report.length} reporting)`,
);
