/**
 * Fills the observation cache (models/.cache) for the training/calibration sets, so that an interrupted run still
 * leaves a usable sample: faces-dev first, then every teenager (13–17, the calibration group) of faces-aaf and
 * faces-train, then chunks taken in turn from four queues — the other faces aged 10–24 of faces-aaf and of
 * faces-train and the rest of each set in a seeded random order:
 *   nice -n 19 npx tsx models/scripts/observe-datasets.ts
 * Safe to stop and restart: every finished image is appended to the cache at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readCsv } from './lib/csv';
import { mulberry32 } from './lib/linear-models';
import { modelsDir, observeFiles } from './lib/observe-dataset';

const dataDir = path.join(modelsDir, '../../shared/data');
const sets = ['faces-dev', 'faces-aaf', 'faces-train'].filter((s) =>
  fs.existsSync(path.join(dataDir, s, 'labels.csv')),
);
if (!sets.length) {
  console.error(`no face sets under ${dataDir}; nothing to observe`);
  process.exit(0);
}
const files = (set: string, pick: (age: number) => boolean) =>
  sets.includes(set)
    ? readCsv(path.join(dataDir, set, 'labels.csv'))
        .filter((r) => pick(Number(r.age)))
        .map((r) => path.join(dataDir, set, r.file!))
    : [];
const rand = mulberry32(20261126);
const shuffled = (list: string[]) => {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
};
const CHUNK = 200;
const chunks = (set: string, list: string[]) =>
  Array.from({ length: Math.ceil(list.length / CHUNK) }, (_, k) => ({
    set,
    list: list.slice(k * CHUNK, (k + 1) * CHUNK),
  }));
const teen = (a: number) => a >= 13 && a <= 17;
const young = (a: number) => a >= 10 && a <= 24 && !teen(a);
// The calibration group decides how strict the cut-off must be (the Clopper–Pearson bound on ages 13–17 needs
// hundreds of them), so every teenager comes first; then round-robin over four queues — the other faces aged 10–24
// of faces-aaf and of faces-train and the rest of each set in a seeded random order — so that whenever the run
// stops, the young adults of both sets and a random sample of everyone else (children and adults, for training
// the heads and measuring adult approval) are in.
const teens = [
  ...chunks('faces-aaf', files('faces-aaf', teen)),
  ...chunks('faces-train', files('faces-train', teen)),
];
const queues = [
  chunks('faces-aaf', files('faces-aaf', young)),
  chunks('faces-train', files('faces-train', young)),
  chunks('faces-train', shuffled(files('faces-train', (a) => !young(a) && !teen(a)))),
  chunks('faces-aaf', shuffled(files('faces-aaf', (a) => !young(a) && !teen(a)))),
];
const passes: { set: string; list: string[] }[] = [
  { set: 'faces-dev', list: files('faces-dev', () => true) },
  ...teens,
  ...Array.from({ length: Math.max(...queues.map((q) => q.length)) }, (_, k) =>
    queues.map((q) => q[k]).filter((c) => c !== undefined),
  ).flat(),
];
for (const { set, list } of passes) {
  if (!list.length) continue;
  const t0 = performance.now();
  const out = await observeFiles(list, set, { op: 'descriptor' });
  console.log(
    `${set}: ${list.length} images, ${out.filter((o) => o.obs).length} faces (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
  );
}
console.log('all observed');
