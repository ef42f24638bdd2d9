/**
 * Calibration of the face-match threshold (src/face-match.ts):
 *   tsx models/scripts/calibrate-face-match.ts [--data ../shared/data] [--json]
 * Impostor pairs: every pair of faces-dev images (different people: near-duplicates were removed from the set,
 * though UTKFace may still hold a few people twice, which only makes the impostor tail look worse), pairs of
 * different NUAA subjects in spoof/, and pairs of the fixture images. Genuine pairs: the same NUAA subject (two
 * live captures and two printed photos of them), and mild copies of the fixtures and of 100 faces-dev images
 * (crop, down-scale, brightness, JPEG re-compression) made here with sharp. Same-person photos taken years apart,
 * which a document portrait against a selfie really is, are not in this data: see MODEL_CARD.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { cosineSimilarity, defaultFaceMatchConfig, humanSimilarity } from '../src/face-match';
import { argValue, readCsv } from './lib/csv';
import { modelsDir, observeFiles } from './lib/observe-dataset';

const args = process.argv.slice(2);
const dataDir = path.resolve(argValue(args, '--data') ?? path.join(modelsDir, '../../shared/data'));
if (!fs.existsSync(path.join(dataDir, 'faces-dev/labels.csv'))) {
  console.error(`faces-dev not found under ${dataDir}: pass --data <dir>; skipping.`);
  process.exit(0);
}

type Metric = (a: number[], b: number[]) => number;
const metrics: Record<string, Metric> = { cosine: cosineSimilarity, human: humanSimilarity };

async function descriptors(files: string[], label: string): Promise<Map<string, number[]>> {
  const observed = await observeFiles(files, label, { op: 'descriptor' });
  return new Map(observed.filter((o) => o.obs).map((o) => [o.file, o.obs!.descriptor]));
}

/** Mild, realistic changes of one photo: what a re-take or a re-upload of the same image does. */
async function variants(file: string, dir: string): Promise<string[]> {
  const img = sharp(fs.readFileSync(file));
  const { width = 0, height = 0 } = await img.metadata();
  const base = path.join(dir, path.basename(file, path.extname(file)));
  const out: [string, Sharp][] = [
    [
      `${base}-crop.jpg`,
      img.clone().extract({
        left: Math.round(width * 0.05),
        top: Math.round(height * 0.05),
        width: Math.round(width * 0.9),
        height: Math.round(height * 0.9),
      }),
    ],
    [`${base}-scale.jpg`, img.clone().resize(Math.round(width * 0.7))],
    [`${base}-bright.jpg`, img.clone().modulate({ brightness: 1.2 })],
    [`${base}-dark.jpg`, img.clone().modulate({ brightness: 0.8 })],
  ];
  for (const [name, pipeline] of out) await pipeline.jpeg({ quality: 70 }).toFile(name);
  return out.map(([name]) => name);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attestly-match-'));
try {
  const devRows = readCsv(path.join(dataDir, 'faces-dev/labels.csv'));
  const devFiles = devRows.map((r) => path.join(dataDir, 'faces-dev', r.file!));
  const dev = await descriptors(devFiles, 'faces-dev');

  const spoofRows = readCsv(path.join(dataDir, 'spoof/labels.csv')).filter((r) => /^\d+$/.test(r.subject!));
  const spoofFiles = spoofRows.map((r) => path.join(dataDir, 'spoof', r.file!));
  const spoof = await descriptors(spoofFiles, 'spoof');
  const subjectOf = new Map(spoofRows.map((r, i) => [spoofFiles[i]!, r.subject!]));

  const fixtureFiles = fs
    .readdirSync(path.join(dataDir, 'fixtures'))
    .filter((f) => f.endsWith('.jpg'))
    .map((f) => path.join(dataDir, 'fixtures', f));
  // Every 10th faces-dev image: a spread of ages and groups without observing 4,000 extra files.
  const sources = [...fixtureFiles, ...devFiles.filter((_, i) => i % 10 === 0)];
  const copies: [string, string][] = [];
  for (const file of sources) for (const v of await variants(file, tmp)) copies.push([file, v]);
  const originals = await descriptors(fixtureFiles, 'fixtures');
  const copied = await descriptors(
    copies.map(([, v]) => v),
    'match-variants',
  );

  const pairs = {
    impostor_dev: [],
    impostor_nuaa: [],
    impostor_fixtures: [],
    genuine_nuaa: [],
    genuine_copy: [],
  } as Record<string, [number[], number[]][]>;
  const devList = [...dev.values()];
  for (let i = 0; i < devList.length; i++)
    for (let j = i + 1; j < devList.length; j++) pairs.impostor_dev!.push([devList[i]!, devList[j]!]);
  const spoofList = [...spoof.entries()];
  for (let i = 0; i < spoofList.length; i++)
    for (let j = i + 1; j < spoofList.length; j++) {
      const same = subjectOf.get(spoofList[i]![0]) === subjectOf.get(spoofList[j]![0]);
      pairs[same ? 'genuine_nuaa' : 'impostor_nuaa']!.push([spoofList[i]![1], spoofList[j]![1]]);
    }
  const fixList = [...originals.values()];
  for (let i = 0; i < fixList.length; i++)
    for (let j = i + 1; j < fixList.length; j++) pairs.impostor_fixtures!.push([fixList[i]!, fixList[j]!]);
  for (const [src, v] of copies) {
    const a = originals.get(src) ?? dev.get(src);
    const b = copied.get(v);
    if (a && b) pairs.genuine_copy!.push([a, b]);
  }

  const q = (s: number[], p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  const report: Record<string, unknown> = { threshold: defaultFaceMatchConfig.threshold };
  for (const [name, metric] of Object.entries(metrics)) {
    const scores: Record<string, number[]> = {};
    for (const [set, list] of Object.entries(pairs))
      scores[set] = list.map(([a, b]) => metric(a, b)).sort((x, y) => x - y);
    const imp = scores.impostor_dev!;
    const thresholdAt = (fmr: number) => q(imp, 1 - fmr);
    const t4 = thresholdAt(1e-4);
    const t3 = thresholdAt(1e-3);
    const rate = (s: number[], t: number, above: boolean) =>
      Math.round((1e5 * s.filter((v) => (above ? v >= t : v < t)).length) / Math.max(1, s.length)) / 1000;
    const summary: Record<string, unknown> = {
      threshold_fmr_1e3: Math.round(t3 * 1000) / 1000,
      threshold_fmr_1e4: Math.round(t4 * 1000) / 1000,
    };
    for (const [set, s] of Object.entries(scores)) {
      summary[set] = {
        n: s.length,
        min: Math.round(s[0]! * 1000) / 1000,
        p50: Math.round(q(s, 0.5) * 1000) / 1000,
        p99: Math.round(q(s, 0.99) * 1000) / 1000,
        max: Math.round(s[s.length - 1]! * 1000) / 1000,
        // Share of pairs called "same person" at the FMR 1e-4 point and at the configured threshold.
        match_pct_at_fmr_1e4: rate(s, t4, true),
        match_pct_at_default: name === 'cosine' ? rate(s, defaultFaceMatchConfig.threshold, true) : undefined,
      };
    }
    // Match rate (%) per pair set over a range of thresholds: the trade-off the chosen threshold sits on.
    summary.sweep = Object.fromEntries(
      [0.66, 0.7, 0.72, 0.74, 0.76, 0.78, 0.8].map((t) => [
        t,
        Object.fromEntries(Object.entries(scores).map(([set, s]) => [set, rate(s, t, true)])),
      ]),
    );
    report[name] = summary;
  }
  if (!args.includes('--json')) console.log(JSON.stringify(report, null, 2));
  console.log(JSON.stringify(report));
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
