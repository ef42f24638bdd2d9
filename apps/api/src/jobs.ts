import { Op } from 'sequelize';
import type { Logger } from 'pino';
import type { Job } from './core/jobs';
import type { AppServices } from './services';
import { purgeExpiredPayloads } from './oidc/adapter';
import { rotateSigningKeysIfDue } from './oidc/keys';
import { mailOutboxFor } from './modules/shared/notifications/outbox';
import { MEDIA_PURGE_INTERVAL_MS } from './modules/users/verification/service';
import { ALERT_WATCH_INTERVAL_MS } from './modules/backoffice/system/service';
import { webhookJobs } from './modules/partners/webhooks/jobs';

export type { Job } from './core/jobs';

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
    { name: 'purge-login-failures', everyMs: HOUR, run: () => services.users.purgeLoginFailures() },
    // Liveness challenges past their minute can answer nothing (modules/users/verification/challenge.ts).
    {
      name: 'purge-liveness-challenges',
      everyMs: HOUR,
      run: () => services.verifications.challenges.purgeExpired(),
    },
    // Mail queued with its action (notifications/outbox.ts): what a crash or an SMTP outage left unsent, retried.
    // Rows are claimed with a conditional update, so replicas never send one twice.
    { name: 'deliver-mail', everyMs: 5_000, atStart: true, run: () => mailOutboxFor(services).deliverDue() },
    { name: 'purge-sent-mail', everyMs: HOUR, run: () => mailOutboxFor(services).purgeSent() },
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
    // Verification media kept for review (DESIGN.md §5): deleted once decided or past the retention limit. Run at
    // start too, so a server that restarts more often than the interval still purges.
    {
      name: 'purge-verification-media',
      everyMs: MEDIA_PURGE_INTERVAL_MS,
      atStart: true,
      run: () => services.verifications.purgeMedia(),
    },
    // The dashboard's alerts, computed even when no administrator looks, so that each start and end of an alert
    // is written to the audit log (system_alert) when it happens.
    {
      name: 'watch-system-alerts',
      everyMs: ALERT_WATCH_INTERVAL_MS,
      atStart: true,
      run: () => services.admin.system.alerts(),
    },
    ...webhookJobs(services),
    ...(services.config.signingKeyRotationMs
      ? [signingKeyRotationJob(services, services.config.signingKeyRotationMs)]
      : []),
  ];
}

/**
 * Scheduled signing-key rotation (DESIGN.md §2, §4): every replica checks hourly; the rotation is claimed in the
 * database (oidc/keys.ts), so it happens once. Replicas load the new keys at their next key check (oidc/index.ts).
 */
function signingKeyRotationJob(services: AppServices, maxAgeMs: number): Job {
  return {
    name: 'rotate-signing-keys',
    everyMs: HOUR,
    atStart: true,
    async run() {
      const rotated = await rotateSigningKeysIfDue(services, maxAgeMs);
      if (rotated) {
        await services.audit.record({
          event: 'signing_keys_rotated',
          severity: 'info',
          details: { ...rotated, scheduled: true, max_age_days: maxAgeMs / 86400_000 },
        });
      }
      return rotated;
    },
  };
}

/**
 * Runs each job on its interval (first run after one interval, or at once with `atStart`), logging failures;
 * returns a stop function.
 */
export function startJobs(jobs: Job[], logger: Logger): () => void {
  const runOnce = (job: Job) =>
    job.run().then(
      (result) => logger.debug({ job: job.name, result }, 'job done'),
      (error: unknown) => logger.error({ err: error, job: job.name }, 'job failed'),
    );
  const timers = jobs.map((job) => {
    if (job.atStart) void runOnce(job);
    const timer = setInterval(() => void runOnce(job), job.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach((timer) => clearInterval(timer));
}
