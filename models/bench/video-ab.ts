/**
 * Interleaved A/B of the 5-second video decision (issue 23's speed bound): this tree's engine against the engine of
 * another checkout (a worktree of an earlier commit, with node_modules reachable from it), on the same genuine
 * clips, taking turns so both meet the same load. The clips are the first 5 s of the people in
 * ../shared/data/live-videos who turn their heads (so the 3-D checks run as on a real capture), re-encoded once.
 * Both engines get the same server-style challenge; an engine from before challenges ignores it.
 *   git worktree add /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/node_modules
 *   npx tsx models/bench/video-ab.ts /tmp/base [rounds]
 * Prints one JSON line: the CPU model, medians, the ratio of medians and of totals (this tree over the other).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ffmpegPath } from '../src/video-decode';
import type { ChallengeStep } from '../src/index';
import { engineOf } from './checkout-engine';

const here = path.dirname(fileURLToPath(import.meta.url));
const liveVideos = path.resolve(here, '../../../shared/data/live-videos');
/** Genuine clips in which the person turns (labels.csv), long enough for 5 s. */
const CLIPS = ['live_004.mp4', 'live_005.mp4', 'live_022.mp4', 'live_024.mp4'];
const CHALLENGE: ChallengeStep[] = [
  { action: 'turn_left', start_seconds: 0.6, end_seconds: 2.2 },
  { action: 'turn_right', start_seconds: 2.2, end_seconds: 3.6 },
  { action: 'blink', start_seconds: 3.6, end_seconds: 4.5 },
];

function firstFiveSeconds(file: string, dir: string): Buffer {
  const out = path.join(dir, path.basename(file));
  execFileSync(ffmpegPath(), [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-i', file, '-t', '5', '-an'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', out],
  ]);
  return fs.readFileSync(out);
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);

const [other, roundsArg] = process.argv.slice(2);
if (!other) {
  console.error('usage: tsx models/bench/video-ab.ts <other checkout> [rounds]');
  process.exit(2);
}
if (!fs.existsSync(liveVideos)) {
  console.error(`no genuine clips at ${liveVideos}: this bench needs ../shared/data/live-videos`);
  process.exit(2);
}
const rounds = Number(roundsArg ?? 6);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attestly-video-ab-'));
const clips = CLIPS.map((name) => firstFiveSeconds(path.join(liveVideos, name), dir));
fs.rmSync(dir, { recursive: true, force: true });

const arms = { this: await engineOf(path.resolve(here, '../..')), other: await engineOf(other) };
const times = { this: [] as number[], other: [] as number[] };
const decide = (arm: keyof typeof arms, clip: Buffer) =>
  arms[arm].analyzeVideo(clip, { thresholds: [18], challenge: CHALLENGE });
await decide('this', clips[0]!);
await decide('other', clips[0]!);
for (let round = 0; round < rounds; round += 1) {
  for (const [i, clip] of clips.entries()) {
    // Alternate who goes first, so neither arm always meets the machine just after the other's work.
    const order: Array<keyof typeof arms> = (round + i) % 2 === 0 ? ['other', 'this'] : ['this', 'other'];
    for (const arm of order) {
      const started = performance.now();
      await decide(arm, clip);
      times[arm].push(performance.now() - started);
    }
  }
}
await Promise.all([arms.this.close(), arms.other.close()]);
console.log(
  JSON.stringify({
    cpu: os.cpus()[0]?.model,
    cores: os.availableParallelism(),
    load_average: os.loadavg().map((load) => Math.round(load * 10) / 10),
    decisions_each: times.this.length,
    this_median_ms: Math.round(median(times.this)),
    other_median_ms: Math.round(median(times.other)),
    ratio_of_medians: Math.round((median(times.this) / median(times.other)) * 1000) / 1000,
    ratio_of_totals: Math.round((total(times.this) / total(times.other)) * 1000) / 1000,
  }),
);
