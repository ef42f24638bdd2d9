/**
 * How often a recording answers a liveness challenge it was not made for (issue 23 item 1: a clip reused for a
 * second challenge is refused). The challenges are drawn as the API draws them (`drawChallengeSteps`, from a seeded
 * source so the figures repeat) and checked as the engine checks them (`checkChallenge`) against recordings' tracks:
 * - swinging: a head swinging left and right with frequent blinks, at several speeds (the recording an attacker
 *   would make once to replay for any challenge);
 * - replayed answers: for each of 200 challenges, a recording that answers it exactly (each turn held around its
 *   window's middle, each blink in its window's middle), checked against all the other drawn challenges: as it is,
 *   as it is or mirrored (a virtual camera's mirror switch turns a left turn into a right one; the attacker tries
 *   whichever fits), and edited (mirrored where needed, each motion cut and moved into the new challenge's window:
 *   what any video editor does, so it answers every challenge whose turns the recording shows on either side);
 * - genuine recordings: the tracks `npm run eval:liveness` cached for ../shared/data/live-videos (people who turn and
 *   blink on their own; none performs a challenge), when that cache is there; beside each, the share of challenges
 *   whose every step it shows (what it would answer without the unasked-turn rule).
 * Each rate is the share of drawn challenges the recording answers. Run: `npx tsx apps/api/bench/challenge-replay.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  checkChallenge,
  type ChallengeStep,
  type ChallengeTrackPoint,
  type VideoObservation,
} from '@attestly/models';
import { drawChallengeSteps } from '../src/modules/users/verification/challenge';
import { SeededRandom } from '../test/seeded-random';

const DRAWN = 3000;
const FPS = 8;
const SECONDS = 5;
const TURN_DEG = 20;
const OPEN = 0.3;
const CLOSED = 0.1;
/** Human's yaw for a turn to the person's own left is negative (defaultChallengeCheckOptions.leftYawSign). */
const LEFT = -TURN_DEG;

const times = Array.from({ length: SECONDS * FPS }, (_, i) => i / FPS);
const challenges: ChallengeStep[][] = (() => {
  const random = new SeededRandom(2026);
  return Array.from({ length: DRAWN }, () => drawChallengeSteps(random));
})();
const answered = (track: ChallengeTrackPoint[]) =>
  challenges.filter((steps) => checkChallenge(track, steps).passed).length / DRAWN;
/** The share of the drawn challenges other than the i-th that `accepts` lets through. */
const shareOfOthers = (i: number, accepts: (steps: ChallengeStep[]) => boolean) =>
  challenges.filter((steps, j) => j !== i && accepts(steps)).length / (DRAWN - 1);
/** Shares of drawn challenges: those the recording answers, and those whose every step it shows (unasked turns aside). */
function shares(track: ChallengeTrackPoint[]): { answered: number; stepsSeen: number } {
  let answered = 0;
  let stepsSeen = 0;
  for (const steps of challenges) {
    const result = checkChallenge(track, steps);
    if (result.passed) answered++;
    if (result.steps.every((s) => s.passed)) stepsSeen++;
  }
  return { answered: answered / DRAWN, stepsSeen: stepsSeen / DRAWN };
}
/** A head swinging left and right with this period, blinking every `blinkEvery` seconds. */
const swinging = (period: number, blinkEvery: number): ChallengeTrackPoint[] =>
  times.map((t) => ({
    t,
    yaw: TURN_DEG * Math.sin((2 * Math.PI * t) / period),
    ear: Math.abs((t % blinkEvery) - blinkEvery / 2) < 0.5 / FPS ? CLOSED : OPEN,
  }));

/** The recording that answers `steps` exactly: each turn held around its window's middle, each blink mid-window. */
const answerTo = (steps: ChallengeStep[]): ChallengeTrackPoint[] =>
  times.map((t) => {
    let yaw = 0;
    let ear = OPEN;
    for (const step of steps) {
      const middle = (step.start_seconds + step.end_seconds) / 2;
      const half = (step.end_seconds - step.start_seconds) / 2;
      if (step.action === 'blink') {
        if (Math.abs(t - middle) < 0.5 / FPS) ear = CLOSED;
      } else if (Math.abs(t - middle) < half) {
        const side = step.action === 'turn_left' ? LEFT : -LEFT;
        yaw = side * Math.cos((Math.PI / 2) * ((t - middle) / half));
      }
    }
    return { t, yaw, ear };
  });

const rate = (value: number) => Math.round(value * 10000) / 10000;
const report: Record<string, unknown> = { challenges_drawn: DRAWN };

report.swinging = Object.fromEntries(
  [
    [0.8, 0.4],
    [1, 0.5],
    [1.2, 0.6],
    [1.5, 0.5],
    [2, 0.7],
  ].map(([period, blink]) => [
    `period_${period}s_blink_${blink}s`,
    rate(answered(swinging(period!, blink!))),
  ]),
);

const mirrored = (track: ChallengeTrackPoint[]) =>
  track.map((p) => ({ ...p, yaw: p.yaw === null ? null : -p.yaw }));
const turnCount = (steps: ChallengeStep[]) => steps.filter((s) => s.action !== 'blink').length;
/**
 * The edited replay of the answer to `original` offered for `steps`: the recording's turns (a left and a right turn
 * are one another mirrored) and blink cut and moved into the new windows. It answers when the recording shows as many
 * distinct turns as the new challenge asks for: both sides, or one side for a challenge asking one turn.
 */
const editedAnswers = (original: ChallengeStep[], steps: ChallengeStep[]) =>
  turnCount(steps) <= turnCount(original) && checkChallenge(answerTo(steps), steps).passed;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const replays: number[] = [];
const eitherWay: number[] = [];
const edited: number[] = [];
for (let i = 0; i < 200; i++) {
  const track = answerTo(challenges[i]!);
  const flipped = mirrored(track);
  replays.push(shareOfOthers(i, (steps) => checkChallenge(track, steps).passed));
  eitherWay.push(
    shareOfOthers(i, (steps) => checkChallenge(track, steps).passed || checkChallenge(flipped, steps).passed),
  );
  edited.push(shareOfOthers(i, (steps) => editedAnswers(challenges[i]!, steps)));
}
const ownAnswered = challenges.slice(0, 200).filter((steps) => checkChallenge(answerTo(steps), steps).passed);
report.replayed_answers = {
  answers_that_pass_their_own_challenge: `${ownAnswered.length}/200`,
  mean: rate(mean(replays)),
  highest: rate(Math.max(...replays)),
  mirrored_or_not: { mean: rate(mean(eitherWay)), highest: rate(Math.max(...eitherWay)) },
  edited: { mean: rate(mean(edited)), lowest: rate(Math.min(...edited)), highest: rate(Math.max(...edited)) },
};

const cache = path.resolve('models/.cache/liveness-tracks');
const index = path.join(cache, 'trimmed-index.json');
if (fs.existsSync(index)) {
  const genuine: Record<string, number> = {};
  const seen: Record<string, number> = {};
  for (const [key, hash] of Object.entries(
    JSON.parse(fs.readFileSync(index, 'utf8')) as Record<string, string>,
  )) {
    const file = path.join(cache, `${hash}.json`);
    if (!fs.existsSync(file)) continue;
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { obs?: VideoObservation };
    if (!stored.obs) continue;
    const track = stored.obs.frames.map((f) => ({
      t: f.timeSeconds,
      yaw: f.faces === 1 ? f.yawDeg : null,
      ear: f.faces === 1 ? f.eyeAspectRatio : null,
    }));
    const name = path.basename(key.split(':').slice(1, -1).join(':'));
    const share = shares(track);
    genuine[name] = rate(share.answered);
    seen[name] = rate(share.stepsSeen);
  }
  const values = Object.values(genuine);
  report.genuine_recordings = {
    recordings: values.length,
    answering_any: values.filter((v) => v > 0).length,
    highest: rate(Math.max(...values)),
    nonzero: Object.fromEntries(Object.entries(genuine).filter(([, v]) => v > 0)),
    // Every step shown, whether or not a turn nobody asked for refuses it: what the unasked-turn rule takes away.
    steps_seen_nonzero: Object.fromEntries(Object.entries(seen).filter(([, v]) => v > 0)),
  };
} else {
  console.error(`no cached genuine tracks at ${cache} (run \`npm run eval:liveness\` first): skipped`);
}
console.log(JSON.stringify(report));
