/**
 * Impostor pairs for the face-match threshold on the training sets' cached descriptors (fill the cache with
 * models/scripts/observe-datasets.ts): every pair of different images within faces-aaf (mostly East Asian, where
 * face verifiers are known to confuse more people) and within faces-train. Neither set has identity labels, so a
 * few pairs may be the same person in two photos: that only makes the tail look worse.
 *   tsx models/scripts/face-match-impostors.ts [--max 2500]
 */
import fs from 'node:fs';
import path from 'node:path';
import { cosineSimilarity, defaultFaceMatchConfig } from '../src/face-match';
import { argValue, readCsv } from './lib/csv';
import { modelsDir, observeFiles } from './lib/observe-dataset';

const args = process.argv.slice(2);
const max = Number(argValue(args, '--max') ?? 2500);
const dataDir = path.join(modelsDir, '../../shared/data');
const report: Record<string, unknown> = {};
for (const set of ['faces-aaf', 'faces-train']) {
  const labels = path.join(dataDir, set, 'labels.csv');
  if (!fs.existsSync(labels)) continue;
  const files = readCsv(labels).map((r) => path.join(dataDir, set, r.file!));
  const observed = await observeFiles(files, set, { cacheOnly: true, op: 'descriptor' });
  const d = observed
    .filter((o) => o.obs)
    .slice(0, max)
    .map((o) => o.obs!.descriptor);
  const sims: number[] = [];
  for (let i = 0; i < d.length; i++)
    for (let j = i + 1; j < d.length; j++) sims.push(cosineSimilarity(d[i]!, d[j]!));
  sims.sort((a, b) => a - b);
  const at = (t: number) => sims.filter((s) => s >= t).length;
  report[set] = {
    faces: d.length,
    pairs: sims.length,
    p50: Math.round(sims[sims.length >> 1]! * 1000) / 1000,
    max: Math.round(sims[sims.length - 1]! * 1000) / 1000,
    ...Object.fromEntries(
      [0.72, defaultFaceMatchConfig.threshold, 0.8].map((t) => [
        `match_at_${t}`,
        { pairs: at(t), rate: at(t) / sims.length },
      ]),
    ),
  };
}
console.log(JSON.stringify(report, null, 2));
