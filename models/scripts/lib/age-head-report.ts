/**
 * The figures train-age-head.ts reports for a set of faces (out-of-fold, or one source left out): approval rates
 * with 95 % intervals per threshold, age bucket, gender and race, as production decides (child guard included).
 */
import { rateWithInterval, type RateWithInterval } from '../../src/calibration';

export const BUCKETS = ['<13', '13-17', '18-20', '21-24', '25-29', '30-49', '50+'] as const;

export const bucket = (a: number) =>
  a < 13
    ? '<13'
    : a < 18
      ? '13-17'
      : a < 21
        ? '18-20'
        : a < 25
          ? '21-24'
          : a < 30
            ? '25-29'
            : a < 50
              ? '30-49'
              : '50+';

/** Each face's age estimate and each head's logit, by face index (NaN where a face was not scored). */
export interface Scores {
  age: Float64Array;
  logits: Record<string, Float64Array>;
}

/** The faces' labels, the scores a summary reads by default, and the decisions production would take. */
export interface SummaryContext {
  faces: readonly { age: number; gate: boolean; gender: string; race: string }[];
  ages: readonly number[];
  oof: Scores;
  thresholds: readonly number[];
  guarded(i: number, s?: Scores): boolean;
  approvedAt(i: number, T: number, s?: Scores): boolean;
}

/** `summary(idx, s)`: the report of the faces `idx` on scores `s` (out-of-fold by default). */
export function ageHeadSummary(context: SummaryContext) {
  const { faces, ages, oof, thresholds, guarded, approvedAt } = context;
  type Group = Record<string, RateWithInterval>;
  function rates(idx: number[], T: number, key: (i: number) => string, s: Scores = oof): Group {
    const groups = new Map<string, number[]>();
    for (const i of idx) groups.set(key(i), [...(groups.get(key(i)) ?? []), i]);
    return Object.fromEntries(
      [...groups.entries()]
        .sort(([a], [b]) => BUCKETS.indexOf(a as never) - BUCKETS.indexOf(b as never) || a.localeCompare(b))
        .map(([g, ix]) => [g, rateWithInterval(ix.filter((i) => approvedAt(i, T, s)).length, ix.length)]),
    );
  }
  function summary(idx: number[], s: Scores = oof) {
    const g = idx.filter((i) => faces[i]!.gate);
    const out: Record<string, unknown> = {
      faces: idx.length,
      gated: g.length,
      mae: r2(idx.reduce((a, i) => a + Math.abs(s.age[i]! - ages[i]!), 0) / Math.max(1, idx.length)),
      mae_by_bucket: Object.fromEntries(
        BUCKETS.map((b) => {
          const ix = idx.filter((i) => bucket(ages[i]!) === b);
          return [
            b,
            ix.length ? r2(ix.reduce((a, i) => a + Math.abs(s.age[i]! - ages[i]!), 0) / ix.length) : null,
          ];
        }),
      ),
      child_guard_catches_under_13: rateWithInterval(
        g.filter((i) => ages[i]! < 13 && guarded(i, s)).length,
        g.filter((i) => ages[i]! < 13).length,
      ),
      child_guard_vetoes_adults_21: rateWithInterval(
        g.filter((i) => ages[i]! >= 21 && guarded(i, s)).length,
        g.filter((i) => ages[i]! >= 21).length,
      ),
    };
    for (const T of thresholds) {
      out[`T${T}`] = {
        under_13: rateWithInterval(
          g.filter((i) => ages[i]! < 13 && approvedAt(i, T, s)).length,
          g.filter((i) => ages[i]! < 13).length,
        ),
        [`hard_13_${T - 1}`]: rateWithInterval(
          g.filter((i) => ages[i]! >= 13 && ages[i]! < T && approvedAt(i, T, s)).length,
          g.filter((i) => ages[i]! >= 13 && ages[i]! < T).length,
        ),
        adults_25: rateWithInterval(
          g.filter((i) => ages[i]! >= 25 && approvedAt(i, T, s)).length,
          g.filter((i) => ages[i]! >= 25).length,
        ),
        by_bucket: rates(g, T, (i) => bucket(ages[i]!), s),
        ...(T === 18
          ? {
              by_gender: rates(
                g.filter((i) => ages[i]! < 18),
                T,
                (i) => faces[i]!.gender || 'unknown',
                s,
              ),
              by_race: rates(
                g.filter((i) => ages[i]! < 18),
                T,
                (i) => faces[i]!.race || 'unknown',
                s,
              ),
              adults_25_by_gender: rates(
                g.filter((i) => ages[i]! >= 25),
                T,
                (i) => faces[i]!.gender || 'unknown',
                s,
              ),
              adults_25_by_race: rates(
                g.filter((i) => ages[i]! >= 25),
                T,
                (i) => faces[i]!.race || 'unknown',
                s,
              ),
            }
          : {}),
      };
    }
    return out;
  }
  return summary;
}

export function r6(v: number) {
  return Math.round(v * 1e6) / 1e6;
}
export function r3(v: number) {
  return Math.round(v * 1e3) / 1e3;
}
export function r2(v: number) {
  return Math.round(v * 100) / 100;
}
