/** A periodic task of the in-process scheduler (DESIGN.md §2); jobs.ts runs them, the modules declare theirs. */
export interface Job {
  name: string;
  everyMs: number;
  /** Also run once as soon as the jobs start, not only after the first interval. */
  atStart?: boolean;
  run(): Promise<unknown>;
}
