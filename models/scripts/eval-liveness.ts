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
 * then `assessClipLiveness` over the track. The consistency thresholds and the warp score's scale are chosen on the
 * TUNING halves (attack faces split by make-liveness-attacks; genuine people split by person) and APCER and BPCER
 * are reported on the REPORTING halves only. An attack counts as accepted when the whole check passes (the turn and
 * blink seen AND nothing in them a 2-D fake). Bona fide clips (../shared/data/live-videos, first 5 s, at most 640 px
 * wide) do not perform the challenge, so BPCER is the share the consistency checks (3-D, eyes, identity) reject,
 * apart from the challenge's motions and order; it is also given among the people who turned far enough for the 2-D
 * warp statistics to apply, as every challenge makes a person do.
 * Photo (--labels): Human's single-frame passive cue on each still of the spoof set, as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { clopperPearson, createVisionEngine, VisionInputError } from '../src/index';
import { assessActiveLiveness } from '../src/liveness-signals';
import {
  assessClipLiveness,
  assessConsistency,
  defaultClipLivenessOptions,
  passiveCue,
  videoTrack,
  warpScore,
  type ClipLivenessOptions,
  type ConsistencyOptions,
  type TrackFrame,
} from '../src/liveness-3d';
import { blinkTexture } from '../src/blink-texture';
import { parallaxConsistency } from '../src/parallax';
import { photometricConsistency } from '../src/photometric';
import { depthAnchors } from '../src/depth-anchors';
import { depthParallax } from '../src/depth-parallax';
import { argValue, readCsv } from './lib/csv';
import { listClips, observeClips, type Observed } from './lib/liveness-clips';

const args = process.argv.slice(2);
const json = args.includes('--json');
const attacksDir = path.resolve(argValue(args, '--attacks') ?? 'models/.cache/liveness-attacks');
const genuineDir = path.resolve(argValue(args, '--genuine') ?? '../shared/data/live-videos');
const limit = Number(argValue(args, '--limit-per-kind') ?? Infinity);
const labels = argValue(args, '--labels');
const cacheDir = path.resolve('models/.cache/liveness-tracks');
/** Decide from the cached tracks only (no model runs): re-tuning and re-reporting while a scoring run goes on. */
const cachedOnly = args.includes('--cached-only');

const { clips, byKind, ordered } = listClips({ attacksDir, genuineDir, limit });
const observed = await observeClips(ordered, { cacheDir, cachedOnly, quiet: json });

// ---- Tuning. ----
// Each statistic is taken from the track exactly as assessConsistency computes it, on tuning halves only:
//   the warp scale: mean and spread of each 2-D warp statistic's log over the tuning half's one-photo attacks that the
//     motions alone accept (cross-fades are two photos, identity's to refuse, and read as two faces, not as a warp);
//   the warp score's floor, three ways, with the margins the separate floors had: attack-first (the highest tuning
//     attack with every statistic 5 % higher), genuine-first (the lowest tuning person who turned with every statistic
//     10 % lower; committed, as the separate floors were) and midway between the highest attack and the lowest person;
//   the eye-texture floor: genuine-first, 10 % below the lowest tuning person (attack-first: 5 % above the highest
//     tuning attack);
//   the nose-parallax veto's floor (src/depth-anchors.ts): genuine-first, 10 % below the lowest tuning person who
//     turned (fixed 2026-11-30 before any reporting clip was scored with the statistic, committed unchanged after);
//   the passive cue's veto floor (src/liveness-3d.ts passiveCue): genuine-first, 10 % below the lowest tuning person
//     (every tuning person, turned or not: the cue reads the best frames, whatever the motion).
// Every operating point is then reported on the reporting halves (attack faces and people never used to choose it).
// `three_floors` is the rule before the warp score (each statistic held to its own genuine-first floor, committed
// 2026-11-27), kept for comparison on the same clips.
const base = defaultClipLivenessOptions;
const statsOf = (o: Observed) => {
  if ('error' in o) return null;
  const track = videoTrack(o.obs);
  const c = base.consistency;
  return {
    active: assessActiveLiveness(track, base).passed,
    parallax: parallaxConsistency(track, c.minParallaxYawDeg, c.minParallaxFrames)?.ratio ?? null,
    photometric: photometricConsistency(track, c.minParallaxYawDeg, c.minParallaxFrames)?.change ?? null,
    depth: depthParallax(track, c.minParallaxYawDeg, c.minParallaxFrames)?.residual ?? null,
    nose: depthAnchors(track, c.minParallaxYawDeg, c.minParallaxFrames)?.gain ?? null,
    texture: blinkTexture(track, base.blink.closedRatio, base.blink.openRatio),
    passive: passiveCue(track)?.cue ?? null,
  };
};
type Stats = NonNullable<ReturnType<typeof statsOf>>;
// Each tuning clip's statistics, computed once: every floor below reads them.
const tuneAttacks: Stats[] = [];
const tuneGenuine: Stats[] = [];
/** The passive cue of every tuning attack, per kind (the cue reads the best frames, whatever the motion). */
const tuningAttackCueLists = new Map<string, number[]>();
for (const c of clips) {
  if (c.split !== 'tune' && c.split !== 'bona_fide_tune') continue;
  const o = observed.get(c.name);
  const st = o && statsOf(o);
  if (!st) continue;
  if (c.split === 'bona_fide_tune') {
    tuneGenuine.push(st);
    continue;
  }
  if (st.active && c.kind !== 'cross_fade') tuneAttacks.push(st);
  if (st.passive === null) continue;
  const cues = tuningAttackCueLists.get(c.kind) ?? [];
  cues.push(st.passive);
  tuningAttackCueLists.set(c.kind, cues);
}
const r3x = (v: number) => Math.round(v * 1000) / 1000;
const WARP_STATS = ['parallax', 'photometric', 'depth'] as const;
const scaleOf = (values: number[]) => {
  const logs = values.filter((v) => v > 0 && Number.isFinite(v)).map(Math.log);
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1));
  return { logMean: r3x(mean), logSd: r3x(sd) };
};
const warpScale = Object.fromEntries(
  WARP_STATS.map((k) => [k, scaleOf(tuneAttacks.map((st) => st[k]).filter((v): v is number => v !== null))]),
) as ConsistencyOptions['warpScale'];
const warpScores = (list: Stats[]) =>
  list.map((st) => warpScore(st, { ...base.consistency, warpScale })).filter((v): v is number => v !== null);
const attackScores = warpScores(tuneAttacks);
const genuineScores = warpScores(tuneGenuine);
const highestAttack = Math.max(...attackScores);
const lowestGenuine = Math.min(...genuineScores);
/** What multiplying all three statistics by `factor` adds to the warp score (the margins of the old floors). */
const scoreOfFactor = (factor: number) =>
  WARP_STATS.reduce((sum, k) => sum + Math.log(factor) / warpScale[k].logSd, 0) / WARP_STATS.length;
const textures = (list: Stats[]) => list.map((st) => st.texture).filter((v): v is number => v !== null);
const attackFirst = {
  warpScale,
  minWarpScore: r3x(highestAttack + scoreOfFactor(1.05)),
  minBlinkTexture: r3x(Math.max(...textures(tuneAttacks)) * 1.05),
};
const genuineFirst = {
  warpScale,
  minWarpScore: r3x(lowestGenuine + scoreOfFactor(0.9)),
  minBlinkTexture: r3x(Math.min(...textures(tuneGenuine)) * 0.9),
};
const midway = {
  warpScale,
  minWarpScore: r3x((highestAttack + lowestGenuine) / 2),
  minBlinkTexture: genuineFirst.minBlinkTexture,
};
const committed = base.consistency;
/**
 * Fewer tuning warps than this (a folder made with `--kinds` of kinds the motions refuse: card turns, zoom/pans,
 * prints) give no spread to scale the warp score by, so the operating points derived from the tuning halves are not
 * reported; the committed defaults and the three floors still are.
 */
const MIN_TUNING_WARPS = 10;
const notDerived =
  tuneAttacks.length < MIN_TUNING_WARPS || genuineScores.length === 0
    ? `${tuneAttacks.length} tuning warps the motions accept (at least ${MIN_TUNING_WARPS} needed) and ${genuineScores.length} tuning people who turned`
    : null;
// The nose-parallax veto's floor (src/depth-anchors.ts), genuine-first as every committed floor here: the lowest
// tuning person who turned, 10 % lower (further from zero when it is negative). Beside it, the highest tuning warp.
const turnedStats = (list: Stats[]) => list.filter((st) => WARP_STATS.some((k) => st[k] !== null));
const noseOf = (list: Stats[]) => list.map((st) => st.nose).filter((v): v is number => v !== null);
const genuineNoses = noseOf(turnedStats(tuneGenuine));
const lowestGenuineNose = Math.min(...genuineNoses);
const attackNoses = noseOf(tuneAttacks);
// Null without a tuning person who turned (a folder scored without the genuine clips): there is no floor to derive.
const noseParallax = genuineNoses.length
  ? {
      genuineFirst: r3x(lowestGenuineNose * (lowestGenuineNose > 0 ? 0.9 : 1.1)),
      lowestTuningPerson: r3x(lowestGenuineNose),
      highestTuningWarp: attackNoses.length ? r3x(Math.max(...attackNoses)) : null,
      tuningWarpsWithoutOne: tuneAttacks.length - attackNoses.length,
    }
  : null;
// The passive cue's floor: genuine-first, from every tuning person; beside it, how the tuning attacks read, per kind.
const genuineCues = tuneGenuine.map((st) => st.passive).filter((v): v is number => v !== null);
const tuningAttackCues: Record<string, { lowest: number; median: number; n: number }> = {};
for (const [kind, list] of tuningAttackCueLists) {
  const cues = [...list].sort((a, b) => a - b);
  tuningAttackCues[kind] = { lowest: r3x(cues[0]!), median: r3x(cues[cues.length >> 1]!), n: cues.length };
}
const passiveFloor = genuineCues.length
  ? {
      genuineFirst: r3x(Math.min(...genuineCues) * 0.9),
      tuningPeople: genuineCues.map(r3x).sort((x, y) => x - y),
      tuningAttacks: tuningAttackCues,
    }
  : null;
const tuned = {
  ...(notDerived ? { notDerived } : { attackFirst, genuineFirst, midway }),
  noseParallax,
  passiveFloor,
  tuningHalves: {
    attacks: tuneAttacks.length,
    attackScores: { highest: r3x(highestAttack), count: attackScores.length },
    genuinePeopleWhoTurned: genuineScores.length,
    genuineScores: genuineScores.map(r3x).sort((x, y) => x - y),
  },
};
/**
 * The rule before the warp score: each statistic held to its own genuine-first floor (2026-11-27). Since 2026-11-29
 * the depth statistic counts only blocks that match at 0.8 or better (src/depth-parallax.ts), so the 0.946 floor
 * chosen on the old statistic now reads lower values: a comparison, no longer that rule's historical figures.
 */
const THREE_FLOORS = { parallax: 1.84, photometric: 0.128, depth: 0.946 } as const;
const operatingPoints: Record<string, ClipLivenessOptions> = {
  committed: base,
  ...(!notDerived && {
    attack_first: { ...base, consistency: { ...committed, ...attackFirst } },
    genuine_first: { ...base, consistency: { ...committed, ...genuineFirst } },
    midway: { ...base, consistency: { ...committed, ...midway } },
  }),
  three_floors: base,
  // The committed rule without the nose-parallax veto (before 2026-11-30): what the veto changed, on the same clips.
  without_nose_veto: { ...base, consistency: { ...committed, minNoseParallax: null } },
  // …and without the passive cue's veto (before 2026-11-30, late afternoon).
  without_passive_veto: { ...base, consistency: { ...committed, minPassiveCue: null } },
};
const options: ClipLivenessOptions = base;

// ---- Reporting. ----
const r3 = (v: number) => Math.round(v * 1000) / 1000;
const interval = (k: number, n: number) => {
  const [lo, hi] = clopperPearson(k, n);
  return { k, n, rate: n ? r3(k / n) : null, ci95: [r3(lo), r3(hi)] };
};
/**
 * The consistency reasons of a track at an operating point (`three_floors` swaps the warp score for the three
 * separate floors it replaced), and whether the clip turned far enough for the 2-D warp statistics to apply.
 */
function consistencyOf(
  track: TrackFrame[],
  point: string,
  opts: ClipLivenessOptions,
): { reasons: string[]; turned: boolean } {
  const c = assessConsistency(track, opts.consistency, opts.blink);
  const turned = c.warpScore !== null;
  if (point !== 'three_floors') return { reasons: c.reasons, turned };
  const st = {
    parallax: c.parallax?.ratio ?? null,
    photometric: c.photometric?.change ?? null,
    depth: c.depth?.residual ?? null,
  };
  const rest = c.reasons.filter((r) => r !== 'motion_is_2d_warp');
  const warp = WARP_STATS.some((k) => st[k] !== null && !(st[k] >= THREE_FLOORS[k]));
  return { reasons: warp ? ['motion_is_2d_warp', ...rest] : rest, turned };
}

function report(point: string, opts: ClipLivenessOptions) {
  const perKind: Record<
    string,
    ReturnType<typeof interval> & { outcomes: Record<string, number>; oldRuleAccepted: number }
  > = {};
  const all = { k: 0, n: 0 };
  for (const [kind, list] of byKind) {
    if (kind === 'bona_fide') continue;
    const rep = list.filter((c) => c.split === 'report' && observed.has(c.name));
    let accepted = 0;
    let oldRule = 0;
    const outcomes: Record<string, number> = {};
    for (const c of rep) {
      const o = observed.get(c.name)!;
      let outcome: string;
      if ('error' in o) outcome = o.error;
      else {
        const track = videoTrack(o.obs);
        const active = assessActiveLiveness(track, opts);
        const reasons = [...active.reasons, ...consistencyOf(track, point, opts).reasons];
        if (reasons.length === 0) accepted++;
        if (active.passed) oldRule++;
        outcome = reasons.length === 0 ? 'accepted' : reasons.join('+');
      }
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    perKind[kind] = { ...interval(accepted, rep.length), outcomes, oldRuleAccepted: oldRule };
    all.k += accepted;
    all.n += rep.length;
  }
  const gen = clips.filter((c) => c.split === 'bona_fide' && observed.has(c.name));
  let rejected = 0;
  const turned = { k: 0, n: 0 };
  const genuineOutcomes: Record<string, number> = {};
  for (const c of gen) {
    const o = observed.get(c.name)!;
    let outcome = 'error' in o ? o.error : 'passed';
    if (!('error' in o)) {
      const consistency = consistencyOf(videoTrack(o.obs), point, opts);
      outcome = consistency.reasons.join('+') || 'passed';
      // People who turned far enough for the 2-D warp statistics to apply: every challenge asks for a turn.
      if (consistency.turned) {
        turned.n++;
        if (outcome !== 'passed') turned.k++;
      }
    }
    if (outcome !== 'passed') rejected++;
    genuineOutcomes[outcome] = (genuineOutcomes[outcome] ?? 0) + 1;
  }
  return {
    apcer: perKind,
    apcerAll: interval(all.k, all.n),
    bpcer: { ...interval(rejected, gen.length), outcomes: genuineOutcomes },
    bpcerTurned: interval(turned.k, turned.n),
  };
}
const reports = Object.fromEntries(Object.entries(operatingPoints).map(([k, o]) => [k, report(k, o)]));
const genuine = clips.filter((c) => c.kind === 'bona_fide' && observed.has(c.name));

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
      depth: live.consistency.depth?.residual ?? null,
      warpScore: live.consistency.warpScore,
      noseParallax: live.consistency.noseParallax?.gain ?? null,
      texture: live.consistency.blinkTexture,
      identity: live.consistency.identity,
      passive: live.consistency.passive?.cue ?? null,
    };
  });
const summary = {
  clips: detail,
  attack_clips_scored: [...observed.keys()].filter((k) => !genuine.some((g) => g.name === k)).length,
  genuine_tuning_people: clips.filter((c) => c.split === 'bona_fide_tune' && observed.has(c.name)).length,
  genuine_reporting_people: clips.filter((c) => c.split === 'bona_fide' && observed.has(c.name)).length,
  tuned,
  committed_thresholds: committed,
  reports,
};

if (labels) {
  // Photo path: the single-frame passive cue on each still (unchanged from before the attack set).
  const rows = readCsv(labels).map((r) => ({
    file: path.resolve(path.dirname(labels), r.file!),
    attack: r.label !== 'live',
  }));
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
  if (notDerived) console.log(`operating points from the tuning halves not derived: ${notDerived}`);
  else {
    console.log(`attack-first thresholds (tuning attack half): ${JSON.stringify(attackFirst)}`);
    console.log(
      `genuine-first thresholds (tuning genuine half, ${summary.genuine_tuning_people} people): ${JSON.stringify(genuineFirst)}`,
    );
    console.log(`midway between the tuning halves: ${JSON.stringify(midway)}`);
  }
  console.log(`tuning halves: ${JSON.stringify(tuned.tuningHalves)}`);
  console.log(`nose-parallax floor from the tuning halves: ${JSON.stringify(noseParallax)}`);
  console.log(`passive cue's floor from the tuning halves: ${JSON.stringify(passiveFloor)}`);
  console.log(`committed defaults: ${JSON.stringify(committed)}`);
  for (const [name, r] of Object.entries(reports)) {
    console.log(`\n[${name}] APCER per attack kind, reporting half (faces never used for tuning):`);
    for (const [kind, k] of Object.entries(r.apcer))
      console.log(
        `  ${kind.padEnd(15)} ${pct(k)}; motions alone (the rule before issue 23) accept ${k.oldRuleAccepted}; ${JSON.stringify(k.outcomes)}`,
      );
    console.log(`  all kinds       ${pct(r.apcerAll)}`);
    console.log(
      `  BPCER, consistency checks on ${summary.genuine_reporting_people} genuine reporting people: ${pct(r.bpcer)} ${JSON.stringify(r.bpcer.outcomes)}`,
    );
    console.log(`  BPCER among the reporting people who turned: ${pct(r.bpcerTurned)}`);
  }
}
console.log(JSON.stringify(summary));
