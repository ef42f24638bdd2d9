import { Op } from 'sequelize';
import type { Logger } from 'pino';
import type { AppServices } from './services';
import { purgeExpiredPayloads } from './oidc/adapter';

export interface Job {
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

const HOUR = 3600_000;

/**
 * Housekeeping that is idempotent, so every replica may run it without claiming it first: deleting rows that
 * have expired cannot be done twice in a harmful way. (Work that must happen once — webhook delivery — claims rows
 * through the database instead.)
 */
export function maintenanceJobs(services: AppServices): Job[] {
  const { sessions, limiter, db, clock } = services;
  return [
    { name: 'purge-expired-sessions', everyMs: HOUR, run: () => sessions.purgeExpired() },
    { name: 'purge-rate-limit-windows', everyMs: HOUR, run: () => limiter.purgeExpired(24 * HOUR) },
    {
      name: 'purge-one-time-tokens',
      everyMs: HOUR,
      run: () =>
        db.models.OneTimeToken.destroy({
          where: { [Op.or]: [{ expires_at: { [Op.lt]: clock.now() } }, { used_at: { [Op.ne]: null } }] },
        }),
    },
    // Expired codes, tokens, sessions and interactions of the OpenID Connect provider (the adapter already hides them).
    { name: 'purge-oidc-payloads', everyMs: HOUR, run: () => purgeExpiredPayloads({ db }) },
  ];
}

/** Runs each job on its interval (first run after one interval), logging failures; returns a stop function. */
export function startJobs(jobs: Job[], logger: Logger): () => void {
  const timers = jobs.map((job) => {
    const timer = setInterval(() => {
      job.run().then(
        (result) => logger.debug({ job: job.name, result }, 'job done'),
        (error: unknown) => logger.error({ err: error, job: job.name }, 'job failed'),
      );
    }, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach((timer) => clearInterval(timer));
}
