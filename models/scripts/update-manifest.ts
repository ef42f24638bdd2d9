/**
 * Regenerates models/manifest.json from the installed packages. Run only after an intended model upgrade,
 * together with `npm run eval:age` and `npm run train:age-head`, and record the new figures in MODEL_CARD.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HUMAN_MODELS, humanModelsDir, packageDir } from '../src/model-files';
import { AGE_CNN_FILES } from '../src/age-cnn';
import {
  OWN_PACKAGE,
  installedVersion,
  manifestPackageDir,
  sha256File,
  type ManifestEntry,
  type ModelManifest,
} from '../src/manifest';

const roles: Record<string, string> = {
  blazeface: 'face detector',
  facemesh: 'face landmarks (pose, eye aspect ratio)',
  iris: 'iris and eyelid refinement (blink detection)',
  faceres: 'face descriptor (1024-d) and base age estimate',
  antispoof: 'single-frame presentation-attack cue (weak)',
  liveness: 'single-frame liveness cue (weak)',
};

function entry(pkg: string, rel: string, role: string): ManifestEntry {
  const file = path.join(manifestPackageDir(pkg), rel);
  return {
    role,
    package: pkg,
    version: installedVersion(pkg),
    path: rel,
    sha256: sha256File(file),
    bytes: fs.statSync(file).size,
  };
}

const human = '@vladmandic/human';
const humanDir = packageDir(human);
const files: ManifestEntry[] = [];
for (const m of HUMAN_MODELS) {
  for (const ext of ['json', 'bin']) {
    const rel = path.relative(humanDir, path.join(humanModelsDir(), `${m}.${ext}`));
    files.push(entry(human, rel, roles[m] ?? m));
  }
}
files.push(entry(human, 'dist/human.node-wasm.js', 'Human runtime (WASM build)'));
// The age networks trained here (models/training/train_age_cnn.py, `npm run train:age-model`).
for (const json of AGE_CNN_FILES) {
  for (const rel of [`weights/${json}`, `weights/${json.replace(/\.json$/, '.bin')}`]) {
    files.push(entry(OWN_PACKAGE, rel, 'age network fine-tuned from faceres (age estimate)'));
  }
}
for (const w of [
  'tfjs-backend-wasm.wasm',
  'tfjs-backend-wasm-simd.wasm',
  'tfjs-backend-wasm-threaded-simd.wasm',
]) {
  files.push(entry('@tensorflow/tfjs-backend-wasm', `dist/${w}`, 'TensorFlow.js WASM kernels'));
}
files.push(
  entry('@tesseract.js-data/eng', '4.0.0/eng.traineddata.gz', 'Tesseract English LSTM model (MRZ OCR)'),
);

const manifest: ModelManifest = { generated_by: 'tsx models/scripts/update-manifest.ts', files };
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../manifest.json');
fs.writeFileSync(out, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`wrote ${out} (${files.length} files)`);
