/**
 * Interleaved A/B of two age heads (issue 22's speed bound): one engine per head in the same process, taking turns
 * on the same photo decision and the same 5-second video decision, so both meet the machine at the same minute.
 * A separate run per head (vision-bench.ts twice) drifts with the machine's speed over the minutes between them;
 * turns within one process do not.
 *   npx tsx models/bench/age-head-ab.ts [head B json, default: the engine's default head] [rounds, default 10]
 *   npx tsx models/bench/age-head-ab.ts --base <other checkout> [rounds]
 *   npx tsx models/bench/age-head-ab.ts --before-issue-22 [rounds]
 * Head A is the faceres head (models/weights/age-head.json) in this build: the age networks' own cost. With
 * `--base`, arm A is the default engine of another checkout (a worktree, with node_modules reachable from it: its
 * graphs and engine code differ, not only the head); `--before-issue-22` makes that the pipeline issue 22's speed
 * bound is measured against, which also ran faceres as Human ships it, unfused (graph-fuse.ts). The inputs are
 * the vision bench's: the committed FairFace fixtures and a 5-s clip of one of them. `npm run bench` runs the
 * default and `--before-issue-22`. Prints one JSON line: the CPU model, the medians, the ratio of medians and of
 * totals (B over A).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgeHeadWeights } from '../src/age-head';
import { ageHeads, committedWeights, createVisionEngine, type VisionEngine } from '../src/index';
import { adultMale40s, fixture, fixturesDir, stillVideo } from '../test/media';
import { engineOf } from './checkout-engine';

type Arm = 'a' | 'b';

export async function runAgeHeadAb(
  headB: AgeHeadWeights = committedWeights,
  rounds = 10,
  baseTree?: string,
): Promise<Record<string, number | string | number[] | undefined>> {
  const heads: Record<Arm, AgeHeadWeights> = { a: ageHeads.faceres, b: headB };
  const photos = fs
    .readdirSync(fixturesDir)
    .filter((f) => f.endsWith('.jpg'))
    .map((f) => fixture(f));
  const clip = stillVideo(fixture(adultMale40s), 5);
  const engines: Record<Arm, VisionEngine> = {
    a: baseTree ? await engineOf(baseTree) : createVisionEngine({ weights: heads.a }),
    b: createVisionEngine({ weights: heads.b }),
  };
  try {
    await Promise.all(Object.values(engines).map((e) => e.ready));
    const times = {
      photo: { a: [] as number[], b: [] as number[] },
      video: { a: [] as number[], b: [] as number[] },
    };
    // Alternate who goes first, so neither arm always meets the machine just after the other's work.
    const order = (turn: number): Arm[] => (turn % 2 === 0 ? ['a', 'b'] : ['b', 'a']);
    // Warm-up: the first call of each engine loads and compiles its kernels.
    for (const arm of ['a', 'b'] as const) {
      await engines[arm].analyzePhoto(photos[0]!, { thresholds: [18] });
      await engines[arm].analyzeVideo(clip, { thresholds: [18] });
    }
    for (let round = 0; round < rounds; round += 1) {
      for (const [i, photo] of photos.entries()) {
        for (const arm of order(round + i)) {
          const started = performance.now();
          await engines[arm].analyzePhoto(photo, { thresholds: [18] });
          times.photo[arm].push(performance.now() - started);
        }
      }
      for (const arm of order(round)) {
        const started = performance.now();
        await engines[arm].analyzeVideo(clip, { thresholds: [18] });
        times.video[arm].push(performance.now() - started);
      }
    }
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
    const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
    const ratio = (b: number, a: number) => Math.round((b / a) * 1000) / 1000;
    const summary = (kind: 'photo' | 'video') => ({
      [`${kind}_decisions_each`]: times[kind].a.length,
      [`${kind}_a_median_ms`]: Math.round(median(times[kind].a)),
      [`${kind}_b_median_ms`]: Math.round(median(times[kind].b)),
      [`${kind}_ratio_of_medians`]: ratio(median(times[kind].b), median(times[kind].a)),
      [`${kind}_ratio_of_totals`]: ratio(total(times[kind].b), total(times[kind].a)),
    });
    return {
      cpu: os.cpus()[0]?.model,
      cores: os.availableParallelism(),
      load_average: os.loadavg().map((load) => Math.round(load * 10) / 10),
      head_a: baseTree ? `default engine of ${path.resolve(baseTree)}` : heads.a.features,
      head_b: heads.b.features,
      ...summary('photo'),
      ...summary('video'),
    };
  } finally {
    await Promise.all(Object.values(engines).map((e) => e.close()));
  }
}

/**
 * The last commit before issue 22 touched the vision engine: the pipeline its speed bound is measured against
 * (faceres as Human's converter left it, the faceres head, no age network).
 */
export const BEFORE_ISSUE_22 = '4193825';

/**
 * The default engine against the pipeline before issue 22, taking turns (`runAgeHeadAb` with `--base`): a git
 * worktree of that commit is made once under node_modules/.cache, where it resolves this checkout's packages and no
 * test run looks for test files. Without git or that commit (an install from a release tarball) it says so and
 * measures nothing.
 */
export async function runAgeHeadAbBeforeIssue22(rounds = 10): Promise<Record<string, unknown>> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const tree = path.join(root, 'node_modules/.cache', `attestly-before-issue-22-${BEFORE_ISSUE_22}`);
  if (!fs.existsSync(path.join(tree, 'models/src/index.ts'))) {
    try {
      execFileSync('git', ['-C', root, 'worktree', 'add', '--force', '--detach', tree, BEFORE_ISSUE_22], {
        stdio: 'ignore',
      });
    } catch {
      return { skipped: `no git checkout holding commit ${BEFORE_ISSUE_22} to measure against` };
    }
  }
  return runAgeHeadAb(committedWeights, rounds, tree);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  if (argv[0] === '--before-issue-22') {
    console.log(JSON.stringify(await runAgeHeadAbBeforeIssue22(Number(argv[1] ?? 10))));
  } else if (argv[0] === '--base') {
    if (!argv[1]) throw new Error('usage: tsx models/bench/age-head-ab.ts --base <other checkout> [rounds]');
    console.log(JSON.stringify(await runAgeHeadAb(committedWeights, Number(argv[2] ?? 10), argv[1])));
  } else {
    const [headArg, roundsArg] = argv;
    const headB = headArg
      ? (JSON.parse(fs.readFileSync(path.resolve(headArg), 'utf8')) as AgeHeadWeights)
      : committedWeights;
    console.log(JSON.stringify(await runAgeHeadAb(headB, Number(roundsArg ?? 10))));
  }
}
