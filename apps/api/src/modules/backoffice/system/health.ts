import { statfs } from 'node:fs/promises';
import path from 'node:path';
import type { AdminServiceHealth, AdminSystemHealth } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { knownMigrations } from '../../../db/migrator';
import { toDate } from '../../../db/rows';
import { num } from '../../shared/paging/page';
import type { RequestCounter } from './request-counter';

export const HOUR = 3600_000;
export const DAY = 24 * HOUR;
/** Free space in the data directory below which health degrades and an alert is raised. */
export const LOW_DISK_BYTES = 1024 ** 3;
export const LOW_DISK_RATIO = 0.05;
/** Signing keys older than this should have been rotated (the rotation job's period is shorter). */
export const SIGNING_KEY_MAX_AGE_MS = 90 * DAY;

/** The first row of a SELECT (the dashboard's figures are single-row aggregates). */
export async function readOne<T>(
  db: Deps['db'],
  sql: string,
  params: Record<string, unknown> = {},
): Promise<T> {
  const [row] = await db.read<T>(sql, params);
  return row as T;
}

/** The dashboard's health panel (spec 02 §3 "Health"): the database and each service the appliance relies on. */
export function createHealthChecks(deps: Deps, requests: RequestCounter) {
  const { db, clock, config } = deps;
  const one = <T>(sql: string, params: Record<string, unknown> = {}) => readOne<T>(db, sql, params);

  /** Optional tables (mail outbox, webhooks) are read only where their migrations have run. */
  async function optional<T>(work: () => Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch {
      return null;
    }
  }

  async function databaseHealth() {
    const started = performance.now();
    try {
      await db.read('SELECT 1 AS ok', {});
      return {
        status: 'healthy' as const,
        error: null,
        latency_ms: Math.round((performance.now() - started) * 100) / 100,
      };
    } catch (error) {
      return { status: 'unhealthy' as const, error: (error as Error).message, latency_ms: null };
    }
  }

  async function migrationsHealth(): Promise<AdminServiceHealth> {
    const rows = await optional(() => db.read<{ name: string }>('SELECT name FROM attestly_migrations', {}));
    if (!rows) return { status: 'unhealthy', error: 'Migration table missing' };
    const applied = new Set(rows.map((row) => row.name));
    const pending = knownMigrations.filter((name) => !applied.has(name));
    return pending.length === 0
      ? { status: 'healthy', error: null, details: { applied: applied.size } }
      : { status: 'degraded', error: `${pending.length} migration(s) pending`, details: { pending } };
  }

  function visionHealth(): AdminServiceHealth {
    if (!deps.vision)
      return { status: 'not_configured', error: 'The vision engine is not loaded on this server' };
    const status = deps.vision.status();
    const details = { backend: status.backend, workers: status.workers, queue_depth: status.queued };
    if (!status.ready || status.workers === 0)
      return { status: 'unhealthy', error: 'Models are not loaded (or failed to load)', details };
    return { status: status.queued > status.workers * 8 ? 'degraded' : 'healthy', error: null, details };
  }

  /**
   * Without an SMTP server every mail is written to <data dir>/outbox as an .eml file (notifications/mailer.ts): a
   * supported mode for installs without mail (issue 25 item 10), healthy unless mails are stuck in the queue.
   */
  async function mailHealth(): Promise<AdminServiceHealth> {
    const stuck = await optional(() =>
      one<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM mail_outbox WHERE sent_at IS NULL AND attempts > 0 AND last_error IS NOT NULL',
      ),
    );
    const failing = num(stuck?.n);
    if (failing > 0)
      return { status: 'degraded', error: `${failing} mail(s) failing to send`, details: { failing } };
    if (!config.smtpUrl) {
      const folder = path.join(config.dataDir, 'outbox');
      return {
        status: 'healthy',
        error: null,
        note: `No SMTP server: each mail is written to ${folder} as an .eml file`,
        details: { transport: 'outbox', path: folder },
      };
    }
    return {
      status: 'healthy',
      error: null,
      details: { transport: new URL(config.smtpUrl).protocol.replace(':', '') },
    };
  }

  async function diskHealth(): Promise<AdminServiceHealth> {
    try {
      const fs = await statfs(config.dataDir);
      const free = fs.bavail * fs.bsize;
      const total = fs.blocks * fs.bsize;
      const low = free < LOW_DISK_BYTES || (total > 0 && free / total < LOW_DISK_RATIO);
      return {
        status: low ? 'degraded' : 'healthy',
        error: low ? 'Little free space left in the data directory' : null,
        details: { free_bytes: free, total_bytes: total, path: config.dataDir },
      };
    } catch (error) {
      return { status: 'unhealthy', error: (error as Error).message };
    }
  }

  async function signingKeyHealth(): Promise<AdminServiceHealth> {
    const row = await optional(() =>
      one<{ created_at: unknown }>(
        'SELECT created_at FROM oidc_signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC LIMIT 1',
      ),
    );
    const created = toDate(row?.created_at);
    if (!created)
      return { status: 'not_configured', error: 'No active signing key yet (created at first start)' };
    const ageMs = clock.now().getTime() - created.getTime();
    return {
      status: ageMs > SIGNING_KEY_MAX_AGE_MS ? 'degraded' : 'healthy',
      error: ageMs > SIGNING_KEY_MAX_AGE_MS ? 'The signing key has not been rotated for over 90 days' : null,
      details: { age_days: Math.floor(ageMs / DAY), created_at: created.toISOString() },
    };
  }

  async function webhookHealth(): Promise<AdminServiceHealth> {
    const row = await optional(() =>
      one<{ n: number | string }>(
        "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'failed' AND created_at > :day",
        { day: new Date(clock.now().getTime() - DAY) },
      ),
    );
    if (row === null) return { status: 'not_configured', error: null };
    const failed = num(row.n);
    return failed > 0
      ? {
          status: 'degraded',
          error: `${failed} webhook deliveries failed in the last 24 hours`,
          details: { failed },
        }
      : { status: 'healthy', error: null };
  }

  function stripeHealth(): AdminServiceHealth {
    // Billing off is a supported way to run (DESIGN §6): not a failure, nothing to fix (issue 25 item 10).
    if (!config.stripe)
      return {
        status: 'off',
        error: null,
        note: 'Billing is off (no Stripe keys): administrators assign plans in the back office or with the CLI',
      };
    return {
      status: 'healthy',
      error: null,
      details: { mode: config.stripe.secretKey.startsWith('sk_live_') ? 'live' : 'test' },
    };
  }

  async function health(): Promise<AdminSystemHealth> {
    const now = clock.now();
    const [database, migrations, mail, disk, signing, webhooks, active] = await Promise.all([
      databaseHealth(),
      migrationsHealth(),
      mailHealth(),
      diskHealth(),
      signingKeyHealth(),
      webhookHealth(),
      one<{ n: number | string }>(
        "SELECT COUNT(DISTINCT subject_id) AS n FROM sessions WHERE kind = 'user' AND last_used_at > :hour",
        { hour: new Date(now.getTime() - HOUR) },
      ).catch(() => ({ n: 0 })),
    ]);
    const services: Record<string, AdminServiceHealth> = {
      migrations,
      vision: visionHealth(),
      mail,
      disk,
      signing_keys: signing,
      webhooks,
      stripe: stripeHealth(),
    };
    // The counts are of the rows the panel lists (issue 25 item 10): every service, of which those healthy or off by
    // choice are working. Only degraded or unhealthy ones make the whole degraded.
    const rows = Object.values(services);
    const healthy = rows.filter((service) => service.status === 'healthy' || service.status === 'off').length;
    const worst = rows.some((service) => service.status === 'unhealthy' || service.status === 'degraded');
    const overall = database.status !== 'healthy' ? 'unhealthy' : worst ? 'degraded' : 'healthy';
    return {
      overall_status: overall,
      database: { ...database, dialect: db.dialect },
      services,
      metrics: {
        recent_api_calls: requests.lastHour(),
        active_users_last_hour: num(active.n),
        healthy_services: healthy,
        total_services: rows.length,
      },
      checked_at: now.toISOString(),
    };
  }

  return {
    health,
    migrationsHealth,
    visionHealth,
    mailHealth,
    diskHealth,
    signingKeyHealth,
    webhookHealth,
  };
}
export type HealthChecks = ReturnType<typeof createHealthChecks>;
