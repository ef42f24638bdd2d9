/**
 * Trains the age networks and their calibrated head from scratch, reproducibly (issue 22, R1):
 *   npm run train:age-model [-- --epochs 8] [--lr 1e-4] [--continue] [--size 160] [--skip-crops] [--skip-train]
 * `--skip-train` keeps the committed networks: they score the faces they did not train on again
 * (models/training/score_age_cnn.py, ~5 min) and only the head is refitted. `--continue` trains the committed
 * networks further (each on its own half, so the cross-fitting holds) instead of starting again from faceres.
 * `--size` is the networks' input side (default: the committed graphs'; 160 since 2026-11-30, 128 before). A size
 * other than 128 writes its crops to models/.cache/age-crops-<size>. At a size other than the committed graphs', the
 * fixture crops the TensorFlow.js comparison test reads (models/test/fixtures/age-crops.u8) are made again at that
 * size and replace the committed ones together with the graphs and their golden outputs; the engine reads the size
 * from the graph.
 *
 * 1. Production face crops of faces-dev, faces-train and faces-aaf (dump-age-crops.ts, one process per core).
 * 2. Two networks fine-tuned from faceres on disjoint halves of faces-train + faces-aaf, in parallel, with Debian's
 *    PyTorch (models/training/train_age_cnn.py; `apt-get install -y python3-torch python3-pil`, PyPI is not
 *    needed). faces-dev is never trained on. Each network scores the faces it did not train on.
 * 3. Their TensorFlow.js graphs and golden outputs are copied into models/weights and models/test/fixtures, and
 *    models/manifest.json is regenerated with their SHA-256.
 * 4. The calibrated age head on the out-of-fold scores (train-age-head.ts --features cnn --loso), written as
 *    models/weights/age-head-networks.json (+ .cv.json with the figures): ATTESTLY_AGE_MODEL=networks.
 * 5. The default head, on faceres's observations and network a's scores (train-age-head.ts --features combined
 *    --loso; it observes the faces the cache lacks first), models/weights/age-head-combined.json:
 *    ATTESTLY_AGE_MODEL=combined, the default.
 * CI never runs this: it checks the hashes and compares TensorFlow.js with the golden outputs.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AGE_CNN_FILES } from '../src/age-cnn';
import { ageCropsDir, committedAgeCnnSize } from './lib/age-cnn-scores';
import { argValue } from './lib/csv';
import { modelsDir } from './lib/observe-dataset';

const PYTHON = '/usr/bin/python3';
const args = process.argv.slice(2);
// The committed networks: 8 epochs from faceres at 128 px, then 6 more with --continue --lr 5e-5, then 4 more at 160 px
// with --continue --lr 5e-5 --size 160 (MODEL_CARD.md). The learning rate's default (1e-4) is the trainer's own. One
// process per core for the crops.
const epochs = argValue(args, '--epochs') ?? '8';
const lr = argValue(args, '--lr');
const cores = Math.max(2, os.availableParallelism() - (os.availableParallelism() % 2));
const cache = path.join(modelsDir, '.cache');
const cnnDir = path.join(cache, 'age-cnn');
const root = path.resolve(modelsDir, '..');
const fixturesDir = path.join(modelsDir, 'test/fixtures');

const committed = committedAgeCnnSize();
const size = argValue(args, '--size') ?? committed;
if (!/^\d+$/.test(size) || Number(size) < 64) {
  console.error(`--size ${size}: the input side is a whole number of pixels, 64 or more`);
  process.exit(2);
}
const cropsDir = ageCropsDir(cache, size);
/** The four FairFace fixtures in the order of age-crops.u8 (models/test/fixtures/ATTRIBUTION.md). */
const FIXTURE_FACES = [
  ['fixture_adult_female_20s_fairface_0078.jpg', 25, 'female'],
  ['fixture_adult_female_30s_fairface_0024.jpg', 35, 'female'],
  ['fixture_adult_male_30s_fairface_0065.jpg', 35, 'male'],
  ['fixture_adult_male_40s_fairface_0063.jpg', 45, 'male'],
] as const;

function run(cmd: string, argv: string[], label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => {
      const s = ((performance.now() - t0) / 1000).toFixed(0);
      if (code === 0) {
        console.log(`${label}: done in ${s} s`);
        resolve();
      } else reject(new Error(`${label} exited with ${code} after ${s} s`));
    });
  });
}

const probe = await new Promise<number | null>((resolve) => {
  const p = spawn(PYTHON, ['-c', 'import torch, PIL, numpy'], { stdio: 'ignore' });
  p.on('error', () => resolve(null));
  p.on('exit', resolve);
});
if (probe !== 0) {
  console.error(
    `${PYTHON} cannot import torch, PIL and numpy: apt-get install -y python3-torch python3-pil (Debian's packages)`,
  );
  process.exit(2);
}

const skipTrain = args.includes('--skip-train');
if (skipTrain && size !== committed) {
  console.error(
    `--skip-train scores with the committed networks, whose input is ${committed} px, not ${size}`,
  );
  process.exit(2);
}
if (!args.includes('--skip-crops')) {
  await Promise.all(
    Array.from({ length: cores }, (_, k) =>
      run(
        'npx',
        [
          'tsx',
          'models/scripts/dump-age-crops.ts',
          '--size',
          size,
          '--out',
          cropsDir,
          '--shard',
          String(k),
          '--shards',
          String(cores),
        ],
        `crops ${k + 1}/${cores}`,
      ),
    ),
  );
}
// The trainer writes its golden outputs on the fixture crops, which must be at the networks' size. At another size
// they are made in the cache and replace the committed ones only with the graphs (below), so a failed run leaves the
// committed graphs, goldens and crops consistent.
const fixtureCrops = path.join(fixturesDir, 'age-crops.u8');
const cropBytes = Number(size) * Number(size) * 3;
let trainerFixture = fixtureCrops;
if (!skipTrain && fs.statSync(fixtureCrops).size !== FIXTURE_FACES.length * cropBytes) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'age-fixture-crops-'));
  const faces = path.join(tmp, 'data', 'faces-dev');
  fs.mkdirSync(faces, { recursive: true });
  for (const [file] of FIXTURE_FACES) fs.copyFileSync(path.join(fixturesDir, file), path.join(faces, file));
  fs.writeFileSync(
    path.join(faces, 'labels.csv'),
    ['file,age,gender,race', ...FIXTURE_FACES.map(([file, age, gender]) => `${file},${age},${gender},`)].join(
      '\n',
    ),
  );
  const out = path.join(tmp, 'out');
  await run(
    'npx',
    [
      'tsx',
      'models/scripts/dump-age-crops.ts',
      '--size',
      size,
      '--data',
      path.join(tmp, 'data'),
      '--out',
      out,
    ],
    `fixture crops at ${size} px`,
  );
  const made = fs.readFileSync(path.join(out, 'crops-0.u8'));
  if (made.length !== FIXTURE_FACES.length * cropBytes)
    throw new Error(`the fixture crops at ${size} px hold ${made.length / cropBytes} faces, not 4`);
  fs.mkdirSync(cnnDir, { recursive: true });
  trainerFixture = path.join(cnnDir, `age-crops-${size}.u8`);
  fs.writeFileSync(trainerFixture, made);
  fs.rmSync(tmp, { recursive: true, force: true });
}
if (skipTrain) {
  await run(
    PYTHON,
    ['models/training/score_age_cnn.py', '--threads', String(cores), '--crops', cropsDir, '--size', size],
    'out-of-fold scores',
  );
} else {
  await Promise.all(
    ['a', 'b'].map((m) =>
      run(
        PYTHON,
        [
          'models/training/train_age_cnn.py',
          '--model',
          m,
          '--epochs',
          epochs,
          '--threads',
          String(cores / 2),
          '--crops',
          cropsDir,
          '--size',
          size,
          '--fixture',
          trainerFixture,
          ...(lr ? ['--lr', lr] : []),
          ...(args.includes('--continue') ? ['--continue'] : []),
        ],
        `network ${m}`,
      ),
    ),
  );
}
if (!skipTrain) {
  for (const json of AGE_CNN_FILES) {
    for (const f of [json, json.replace(/\.json$/, '.bin')]) {
      fs.copyFileSync(path.join(cnnDir, f), path.join(modelsDir, 'weights', f));
    }
    const golden = `golden-${json.replace(/^faceres-age-|\.json$/g, '')}.json`;
    fs.copyFileSync(path.join(cnnDir, golden), path.join(fixturesDir, `age-cnn-${golden}`));
  }
  if (trainerFixture !== fixtureCrops) fs.copyFileSync(trainerFixture, fixtureCrops);
}
await run('npx', ['tsx', 'models/scripts/update-manifest.ts'], 'manifest');
// The head on the networks alone, age-head-networks.json (MODEL_CARD.md says why it is not the default);
// ATTESTLY_AGE_MODEL=networks chooses it, and eval:age -- --weights models/weights/age-head-networks.json runs the
// engine with it.
await run(
  'npx',
  ['tsx', 'models/scripts/train-age-head.ts', '--features', 'cnn', '--loso', '--crops', cropsDir],
  'age head',
);
// The default head, on faceres and network a together (ATTESTLY_AGE_MODEL=combined): it also reads faceres's
// observation of every face, which this step makes first where models/.cache lacks it (~25–35 min on 2 cores).
await run(
  'npx',
  [
    'tsx',
    'models/scripts/train-age-head.ts',
    '--features',
    'combined',
    '--loso',
    '--crops',
    cropsDir,
    // The age estimate leans on the networks' six values (MODEL_CARD.md, "the default head's age estimate leans on
    // the network"), and the approval heads too, less (MODEL_CARD.md, "the networks at 160 px, shipped").
    '--ridge-network-weight',
    '10',
    '--logistic-network-weight',
    '3',
  ],
  'combined age head',
);
