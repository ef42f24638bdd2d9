/**
 * Presentation-attack evaluation (ISO/IEC 30107-3 terms):
 *   npm run eval:liveness -- --labels ../shared/data/spoof/labels.csv [--json] [--no-video]
 * Photo path: the single-frame passive cue (`is_live`) on each still. APCER = share of attack presentations
 * accepted as live; BPCER = share of bona fide presentations rejected (no face / retake count as rejected).
 * Video path: every still is turned into a 5-s VP8 WebM with ffmpeg at eval time (a temp dir). A video of a
 * still is itself an attack (no motion, no blink), so for the video path every clip counts as an attack.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createVisionEngine, VisionInputError } from '../src/index';
import { ffmpegPath } from '../src/video-decode';
import { argValue, readCsv } from './lib/csv';

const args = process.argv.slice(2);
const labels = argValue(args, '--labels');
if (!labels || !fs.existsSync(labels)) {
  console.error(`labels CSV not found (${labels ?? 'none given'}): pass --labels <csv>; skipping.`);
  process.exit(labels ? 0 : 2);
}
const rows = readCsv(labels).map((r) => ({
  file: path.resolve(path.dirname(labels), r.file!),
  attack: r.label !== 'live',
  type: r.attack_type || (r.label === 'live' ? 'bona fide' : 'print'),
}));
const engine = createVisionEngine();
await engine.ready;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attestly-liveness-'));

const photo: { attack: boolean; live: boolean; outcome: string }[] = [];
const video: { attack: boolean; live: boolean; outcome: string; ms: number }[] = [];
try {
  for (const row of rows) {
    const bytes = fs.readFileSync(row.file);
    try {
      const r = await engine.analyzePhoto(bytes);
      photo.push({ attack: row.attack, live: r.is_live, outcome: r.is_live ? 'live' : 'not_live' });
    } catch (error) {
      if (!(error instanceof VisionInputError)) throw error;
      photo.push({ attack: row.attack, live: false, outcome: error.code });
    }
    if (args.includes('--no-video')) continue;
    const clip = path.join(tmp, 'clip.webm');
    execFileSync(ffmpegPath(), [
      '-hide_banner',
      '-loglevel',
      'error',
      '-loop',
      '1',
      '-i',
      row.file,
      '-t',
      '5',
      '-r',
      '15',
      '-vf',
      'scale=trunc(iw/2)*2:trunc(ih/2)*2',
      '-c:v',
      'libvpx',
      '-b:v',
      '1M',
      '-pix_fmt',
      'yuv420p',
      '-an',
      '-y',
      clip,
    ]);
    const t0 = performance.now();
    try {
      const r = await engine.analyzeVideo(fs.readFileSync(clip));
      video.push({
        attack: true,
        live: r.is_live,
        outcome: r.is_live ? 'live' : r.video_liveness.reasons.join('+'),
        ms: performance.now() - t0,
      });
    } catch (error) {
      if (!(error instanceof VisionInputError)) throw error;
      video.push({ attack: true, live: false, outcome: error.code, ms: performance.now() - t0 });
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
  await engine.close();
}

const rate = (xs: { live: boolean }[], pick: (x: { live: boolean }) => boolean) =>
  xs.length ? xs.filter(pick).length / xs.length : null;
const tally = (xs: { outcome: string }[]) =>
  xs.reduce<Record<string, number>>((m, x) => ({ ...m, [x.outcome]: (m[x.outcome] ?? 0) + 1 }), {});
const summary = {
  n: rows.length,
  photo_attacks: photo.filter((p) => p.attack).length,
  photo_bona_fide: photo.filter((p) => !p.attack).length,
  photo_apcer: rate(
    photo.filter((p) => p.attack),
    (p) => p.live,
  ),
  photo_bpcer: rate(
    photo.filter((p) => !p.attack),
    (p) => !p.live,
  ),
  photo_outcomes_attack: tally(photo.filter((p) => p.attack)),
  photo_outcomes_bona_fide: tally(photo.filter((p) => !p.attack)),
  video_clips: video.length,
  video_apcer: rate(video, (v) => v.live),
  video_outcomes: tally(video),
  video_p50_ms: video.length
    ? Math.round([...video].sort((a, b) => a.ms - b.ms)[Math.floor(video.length / 2)]!.ms)
    : null,
  video_bpcer: null as number | null,
};
if (!args.includes('--json')) {
  const p = (v: number | null) => (v === null ? 'n/a' : `${(100 * v).toFixed(1)} %`);
  console.log(
    `photo path (single frame, passive): APCER ${p(summary.photo_apcer)} of ${summary.photo_attacks} attacks, BPCER ${p(summary.photo_bpcer)} of ${summary.photo_bona_fide} bona fide`,
  );
  console.log(
    `  outcomes attack ${JSON.stringify(summary.photo_outcomes_attack)} bona fide ${JSON.stringify(summary.photo_outcomes_bona_fide)}`,
  );
  console.log(
    `video path (active challenge) on ${summary.video_clips} still-image clips: APCER ${p(summary.video_apcer)}; outcomes ${JSON.stringify(summary.video_outcomes)}`,
  );
  console.log(
    '  video BPCER needs genuine recordings with a head turn and blink; none are in this data set (n/a).',
  );
}
console.log(JSON.stringify(summary));
