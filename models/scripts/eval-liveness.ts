/**
 * Presentation-attack evaluation (ISO/IEC 30107-3 terms: APCER = share of attack presentations accepted, per attack
 * kind; BPCER = share of bona fide presentations rejected), with Clopper–Pearson 95 % intervals.
 *
 *   npm run make:liveness-attacks            # once: the attack clips into models/.cache/liveness-attacks
 *   npm run eval:liveness [-- --attacks DIR] [--genuine ../shared/data/live-videos] [--limit-per-kind N]
 *                         [--labels ../shared/data/spoof/labels.csv] [--json]
 *
 * Video: each clip's per-frame track (engine.observeVideo: the landmark pass on every frame at 8 fps, the age
 * models on the best frames) is cached in models/.cache/liveness-tracks, keyed by the clip's hash; the decision is
 * then `assessClipLiveness` over the track. The consistency thresholds are chosen on the TUNING half of the attack
 * clips (faces split by make-liveness-attacks) and APCER is reported on the REPORTING half only. An attack counts
 * as accepted when the whole check passes (the turn and blink seen AND nothing in them a 2-D fake). Bona fide clips
 * (../shared/data/live-videos, first 5 s, at most 640 px wide) were never used to choose anything; they do not
 * perform the challenge, so BPCER is the share the consistency checks (3-D, eyes, identity) reject, apart from the
 * challenge's motions and order.
 * Photo (--labels): Human's single-frame passive cue on each still of the spoof set, as before.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { clopperPearson, createVisionEngine, VisionInputError } from '../src/index';
import {
  assessClipLiveness,
  assessConsistency,
  defaultClipLivenessOptions,
  photometricConsistency,
  parallaxConsistency,
  blinkTexture,
  videoTrack,
  type ClipLivenessOptions,
} from '../src/liveness-3d';
import type { VideoObservation } from '../src/types';
import { ffmpegPath } from '../src/video-decode';
import { argValue, readCsv } from './lib/csv';

const args = process.argv.slice(2);
const json = args.includes('--json');
const attacksDir = path.resolve(argValue(args, '--attacks') ?? 'models/.cache/liveness-attacks');
const genuineDir = path.resolve(argValue(args, '--genuine') ?? '../shared/data/live-videos');
const limit = Number(argValue(args, '--limit-per-kind') ?? Infinity);
const labels = argValue(args, '--labels');
const cacheDir = path.resolve('models/.cache/liveness-tracks');
fs.mkdirSync(cacheDir, { recursive: true });

type Observed = { obs: VideoObservation } | { error: string };
interface Clip {
  name: string;
  kind: string;
  split: 'tune' | 'report' | 'bona_fide';
  file: string;
  trim: boolean;
}

const clips: Clip[] = [];
const manifest = path.join(attacksDir, 'manifest.csv');
if (fs.existsSync(manifest)) {
  const rows = readCsv(manifest);
  const counts = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.kind}:${r.split}`;
    const n = counts.get(key) ?? 0;
    if (n >= limit / 2) continue;
    counts.set(key, n + 1);
    clips.push({
      name: r.file!,
      kind: r.kind!,
      split: r.split as 'tune' | 'report',
      file: path.join(attacksDir, r.file!),
      trim: false,
    });
  }
} else {
  console.error(`no attack set at ${attacksDir}: run \`npm run make:liveness-attacks\` first (attacks skipped).`);
}
if (fs.existsSync(path.join(genuineDir, 'labels.csv'))) {
  for (const r of readCsv(path.join(genuineDir, 'labels.csv')))
    clips.push({ name: r.file!, kind: 'bona_fide', split: 'bona_fide', file: path.join(genuineDir, r.file!), trim: true });
} else {
  console.error(`no genuine clips at ${genuineDir} (BPCER skipped).`);
}
// Interleave so that an interrupted run has scored every kind about equally (the cache keeps what was done).
const byKind = new Map<string, Clip[]>();
for (const c of clips) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), c]);
const ordered: Clip[] = [];
for (let i = 0; ordered.length < clips.length; i++)
  for (const list of byKind.values()) if (list[i]) ordered.push(list[i]!);

/** The appliance takes ≤ 5 s: genuine clips are cut to their first 5 s and at most 640 px wide (H.264, no audio). */
function trimmed(file: string): Buffer {
  return execFileSync(
    ffmpegPath(),
    ['-hide_banner', '-loglevel', 'error', '-i', file, '-t', '5', '-an', '-vf', "scale='min(640,iw)':-2", '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4', '-'],
    { maxBuffer: 1 << 28 },
  );
}

const engine = createVisionEngine();
const observed = new Map<string, Observed>();
// Genuine clips are re-encoded before scoring; remember each one's key so a re-run need not re-encode it.
const indexFile = path.join(cacheDir, 'trimmed-index.json');
const trimmedIndex = (fs.existsSync(indexFile) ? JSON.parse(fs.readFileSync(indexFile, 'utf8')) : {}) as Record<string, string>;
let scored = 0;
const t0 = performance.now();
try {
  let ready = false;
  for (const clip of ordered) {
    const known = clip.trim ? trimmedIndex[`${clip.file}:${fs.statSync(clip.file).size}`] : undefined;
    if (known && fs.existsSync(path.join(cacheDir, `${known}.json`))) {
      observed.set(clip.name, JSON.parse(fs.readFileSync(path.join(cacheDir, `${known}.json`), 'utf8')) as Observed);
      continue;
    }
    const bytes = clip.trim ? trimmed(clip.file) : fs.readFileSync(clip.file);
    const key = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 24);
    if (clip.trim) {
      trimmedIndex[`${clip.file}:${fs.statSync(clip.file).size}`] = key;
      fs.writeFileSync(indexFile, JSON.stringify(trimmedIndex));
    }
    const cached = path.join(cacheDir, `${key}.json`);
    if (fs.existsSync(cached)) {
      observed.set(clip.name, JSON.parse(fs.readFileSync(cached, 'utf8')) as Observed);
      continue;
    }
    if (!ready) {
      await engine.ready;
      ready = true;
    }
    let value: Observed;
    try {
      const { decodeMs: _decodeMs, ...obs } = await engine.observeVideo(bytes);
      value = { obs };
    } catch (error) {
      if (!(error instanceof VisionInputError)) throw error;
      value = { error: error.code };
    }
    fs.writeFileSync(cached, JSON.stringify(value));
    observed.set(clip.name, value);
    scored++;
    if (!json && scored % 20 === 0)
      console.error(`  scored ${scored} new clips (${Math.round((performance.now() - t0) / 1000)} s)`);
  }
} finally {
  await engine.close();
}

// ---- Tuning: on the tuning half of the attacks only. ----
const tuneStats = { parallax: [] as number[], photometric: [] as number[], texture: [] as number[] };
for (const c of clips.filter((x) => x.split === 'tune')) {
  const o = observed.get(c.name);
  if (!o || 'error' in o) continue;
  const track = videoTrack(o.obs);
  const p = parallaxConsistency(track, defaultClipLivenessOptions.consistency.minParallaxYawDeg, defaultClipLivenessOptions.consistency.minParallaxFrames);
  if (p) tuneStats.parallax.push(p.ratio);
  const ph = photometricConsistency(track, defaultClipLivenessOptions.consistency.minParallaxYawDeg, defaultClipLivenessOptions.consistency.minParallaxFrames);
  if (ph) tuneStats.photometric.push(ph.change);
  const t = blinkTexture(track, defaultClipLivenessOptions.blink.closedRatio, defaultClipLivenessOptions.blink.openRatio);
  if (t !== null) tuneStats.texture.push(t);
}
/** Just above the highest tuning attack (by 5 %): every tuning attack the statistic applies to is refused by it. */
const above = (xs: number[], fallback: number) => (xs.length ? Math.round(Math.max(...xs) * 1.05 * 1000) / 1000 : fallback);
const committed = defaultClipLivenessOptions.consistency;
const tuned = {
  minParallaxRatio: above(tuneStats.parallax, committed.minParallaxRatio),
  minPhotometricChange: above(tuneStats.photometric, committed.minPhotometricChange),
  minBlinkTexture: above(tuneStats.texture, committed.minBlinkTexture),
};
const options: ClipLivenessOptions = { ...defaultClipLivenessOptions, consistency: { ...committed } };

// ---- Reporting. ----
const r3 = (v: number) => Math.round(v * 1000) / 1000;
const interval = (k: number, n: number) => {
  const [lo, hi] = clopperPearson(k, n);
  return { k, n, rate: n ? r3(k / n) : null, ci95: [r3(lo), r3(hi)] };
};
const perKind: Record<string, ReturnType<typeof interval> & { outcomes: Record<string, number>; oldRuleAccepted: number }> = {};
const all = { k: 0, n: 0 };
for (const [kind, list] of byKind) {
  if (kind === 'bona_fide') continue;
  const report = list.filter((c) => c.split === 'report' && observed.has(c.name));
  let accepted = 0;
  let oldRule = 0;
  const outcomes: Record<string, number> = {};
  for (const c of report) {
    const o = observed.get(c.name)!;
    let outcome: string;
    if ('error' in o) outcome = o.error;
    else {
      const live = assessClipLiveness(videoTrack(o.obs), options);
      if (live.passed) accepted++;
      const active = live.reasons.filter((x) => ['no_head_turn', 'no_blink', 'face_not_visible_enough'].includes(x));
      if (!active.length) oldRule++;
      outcome = live.passed ? 'accepted' : live.reasons.join('+');
    }
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  perKind[kind] = { ...interval(accepted, report.length), outcomes, oldRuleAccepted: oldRule };
  all.k += accepted;
  all.n += report.length;
}
const genuine = clips.filter((c) => c.split === 'bona_fide' && observed.has(c.name));
let rejected = 0;
const genuineOutcomes: Record<string, number> = {};
const genuineDetail: { clip: string; outcome: string; parallax: number | null; photometric: number | null; texture: number | null; identity: number | null }[] = [];
for (const c of genuine) {
  const o = observed.get(c.name)!;
  if ('error' in o) {
    rejected++;
    genuineOutcomes[o.error] = (genuineOutcomes[o.error] ?? 0) + 1;
    genuineDetail.push({ clip: c.name, outcome: o.error, parallax: null, photometric: null, texture: null, identity: null });
    continue;
  }
  const r = assessConsistency(videoTrack(o.obs), options.consistency, options.blink);
  if (!r.passed) rejected++;
  const outcome = r.passed ? 'passed' : r.reasons.join('+');
  genuineOutcomes[outcome] = (genuineOutcomes[outcome] ?? 0) + 1;
  genuineDetail.push({ clip: c.name, outcome, parallax: r.parallax?.ratio ?? null, photometric: r.photometric?.change ?? null, texture: r.blinkTexture, identity: r.identity });
}
const detail = clips
  .filter((c) => observed.has(c.name))
  .map((c) => {
    const o = observed.get(c.name)!;
    if ('error' in o) return { clip: c.name, kind: c.kind, split: c.split, outcome: o.error };
    const live = assessClipLiveness(videoTrack(o.obs), options);
    return {
      clip: c.name,
      kind: c.kind,
      split: c.split,
      outcome: live.passed ? 'accepted' : live.reasons.join('+'),
      yawSpan: live.yaw.span,
      blinks: live.blinks,
      parallax: live.consistency.parallax?.ratio ?? null,
      photometric: live.consistency.photometric?.change ?? null,
      texture: live.consistency.blinkTexture,
      identity: live.consistency.identity,
    };
  });
const summary = {
  clips: detail,
  attack_clips_scored: [...observed.keys()].filter((k) => !genuine.some((g) => g.name === k)).length,
  tuned_on: { clips: clips.filter((c) => c.split === 'tune' && observed.has(c.name)).length, thresholds: tuned },
  committed_thresholds: committed,
  apcer_report_half: perKind,
  apcer_all_kinds: interval(all.k, all.n),
  bpcer: { ...interval(rejected, genuine.length), outcomes: genuineOutcomes },
  genuine: genuineDetail,
};

if (labels) {
  // Photo path: the single-frame passive cue on each still (unchanged from before the attack set).
  const rows = readCsv(labels).map((r) => ({ file: path.resolve(path.dirname(labels), r.file!), attack: r.label !== 'live' }));
  const photoEngine = createVisionEngine();
  const photo: { attack: boolean; live: boolean }[] = [];
  try {
    await photoEngine.ready;
    for (const row of rows) {
      try {
        const r = await photoEngine.analyzePhoto(fs.readFileSync(row.file));
        photo.push({ attack: row.attack, live: r.is_live });
      } catch (error) {
        if (!(error instanceof VisionInputError)) throw error;
        photo.push({ attack: row.attack, live: false });
      }
    }
  } finally {
    await photoEngine.close();
  }
  const att = photo.filter((p) => p.attack);
  const bf = photo.filter((p) => !p.attack);
  Object.assign(summary, {
    photo: {
      apcer: interval(att.filter((p) => p.live).length, att.length),
      bpcer: interval(bf.filter((p) => !p.live).length, bf.length),
    },
  });
}

if (!json) {
  const pct = (x: { k: number; n: number; ci95: number[] }) =>
    `${x.k}/${x.n} = ${x.n ? ((100 * x.k) / x.n).toFixed(1) : 'n/a'} % (95 % CI ${(100 * x.ci95[0]!).toFixed(1)}–${(100 * x.ci95[1]!).toFixed(1)} %)`;
  console.log(`thresholds chosen on the tuning half (${summary.tuned_on.clips} clips): ${JSON.stringify(tuned)}`);
  console.log(`thresholds in use (committed defaults): ${JSON.stringify(committed)}`);
  console.log('APCER per attack kind, reporting half (faces never used for tuning):');
  for (const [kind, r] of Object.entries(perKind))
    console.log(`  ${kind.padEnd(15)} ${pct(r)}; old rule (turn + blink only) would accept ${r.oldRuleAccepted}; ${JSON.stringify(r.outcomes)}`);
  console.log(`  all kinds       ${pct(summary.apcer_all_kinds)}`);
  console.log(`BPCER (consistency checks on ${genuine.length} genuine clips, none used for tuning): ${pct(summary.bpcer)} ${JSON.stringify(genuineOutcomes)}`);
}
console.log(JSON.stringify(summary));
