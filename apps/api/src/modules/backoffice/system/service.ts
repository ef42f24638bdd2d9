import { statfs } from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import { QueryTypes } from 'sequelize';
import type {
  AdminAlert,
  AdminServiceHealth,
  AdminSystemHealth,
  AdminSystemStats,
  AuditSeverity,
} from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { knownMigrations } from '../../../db/migrator';
import { toDate } from '../../../db/rows';
import { GENESIS_HASH, type AuditService } from '../../shared/audit/service';
import { sha256 } from '../../../lib/crypto';
import { num } from '../../shared/paging/page';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** An unreviewed case older than this raises an alert (issue 9). */
export const REVIEW_BACKLOG_MS = DAY;
/** Free space in the data directory below which health degrades and an alert is raised. */
export const LOW_DISK_BYTES = 1024 ** 3;
export const LOW_DISK_RATIO = 0.05;
/** Signing keys older than this should have been rotated (the rotation job's period is shorter). */
export const SIGNING_KEY_MAX_AGE_MS = 90 * DAY;
/** How long one computation of the dashboard statistics is served. */
export const STATS_TTL_MS = 15_000;
/** Every kind of alert `alerts()` raises; one that is absent from a computation has ended. */
export const ALERT_TYPES = [
  'review_backlog',
  'audit_chain_broken',
  'model_load_failure',
  'disk_low',
  'mail_failures',
  'webhook_failures',
  'signing_key_age',
  'migrations_pending',
] as const;
/** How often the alerts are computed without anyone looking at the dashboard (jobs.ts). */
export const ALERT_WATCH_INTERVAL_MS = 5 * 60_000;

/**
 * Requests this replica answered, per minute for the last hour (dashboard "last hour of API calls"). Counted in
 * memory because it is a per-replica figure like the Prometheus counters; 60 buckets, no growth.
 */
export function createRequestCounter(clock: Deps['clock']) {
  const buckets = new Array<number>(60).fill(0);
  const minuteOf = new Array<number>(60).fill(-1);
  const middleware: Middleware = async (ctx, next) => {
    if (ctx.path.startsWith('/api/')) {
      const minute = Math.floor(clock.now().getTime() / 60_000);
      const slot = minute % 60;
      if (minuteOf[slot] !== minute) {
        minuteOf[slot] = minute;
        buckets[slot] = 0;
      }
      buckets[slot] = (buckets[slot] ?? 0) + 1;
    }
    await next();
  };
  return {
    middleware,
    lastHour(): number {
      const minute = Math.floor(clock.now().getTime() / 60_000);
      let total = 0;
      for (let slot = 0; slot < 60; slot++) {
        if (minute - (minuteOf[slot] ?? -1) < 60) total += buckets[slot] ?? 0;
      }
      return total;
    },
  };
}

interface ChainProgress {
  lastId: number;
  lastHash: string;
  broken: { id: number } | null;
}

/**
 * Statistics, health and alerts of the back-office dashboard (spec 02 §3 "Admin system stats", "Health",
 * "Alert"), computed from the database and the running process: nothing is a placeholder.
 */
export function createAdminSystemService(deps: Deps, { audit }: { audit: AuditService }) {
  const { db, clock, config, logger } = deps;
  const requests = createRequestCounter(clock);
  // The audit chain is checked incrementally: each call continues from where the last one stopped.
  const chain: ChainProgress = { lastId: 0, lastHash: GENESIS_HASH, broken: null };

  async function one<T>(sql: string, params: Record<string, unknown> = {}): Promise<T> {
    const [row] = await db.read<T>(sql, params);
    return row as T;
  }

  /**
   * The dashboard's figures scan whole tables (hundreds of thousands of rows), so one computation serves every
   * admin for STATS_TTL_MS; `generated_at` says when it was made.
   */
  let cached: { at: number; value: Promise<AdminSystemStats> } | null = null;
  function stats(): Promise<AdminSystemStats> {
    const now = clock.now().getTime();
    if (!cached || now - cached.at >= STATS_TTL_MS || now < cached.at) {
      const value = computeStats();
      cached = { at: now, value };
      value.catch(() => {
        cached = null;
      });
    }
    return cached.value;
  }

  async function computeStats(): Promise<AdminSystemStats> {
    const now = clock.now();
    const dayAgo = new Date(now.getTime() - DAY);
    const monthAgo = new Date(now.getTime() - 30 * DAY);
    const [users, partners, tokens, verifications] = await Promise.all([
      one<Record<string, unknown>>(
        `SELECT COUNT(*) AS total,
          SUM(CASE WHEN (proven_min_age IS NOT NULL AND age_verified_until > :now) OR location_verified_until > :now
            OR identity_verified_until > :now THEN 1 ELSE 0 END) AS verified,
          SUM(CASE WHEN last_login_at > :month THEN 1 ELSE 0 END) AS active,
          SUM(CASE WHEN created_at > :day THEN 1 ELSE 0 END) AS recent
         FROM users WHERE deleted_at IS NULL`,
        { now, month: monthAgo, day: dayAgo },
      ),
      one<Record<string, unknown>>(
        "SELECT COUNT(*) AS total, SUM(CASE WHEN status = 'active' THEN 1 ELSE 0 END) AS active FROM partners",
      ),
      one<Record<string, unknown>>(
        'SELECT COUNT(*) AS total FROM oauth_authorizations WHERE revoked_at IS NULL AND expires_at > :now',
        { now },
      ),
      one<Record<string, unknown>>(
        `SELECT COUNT(*) AS total,
          SUM(CASE WHEN created_at > :day THEN 1 ELSE 0 END) AS recent,
          SUM(CASE WHEN created_at > :month AND status = 'approved' THEN 1 ELSE 0 END) AS approved,
          SUM(CASE WHEN created_at > :month AND status IN ('rejected', 'failed') THEN 1 ELSE 0 END) AS unsuccessful,
          SUM(CASE WHEN status = 'pending' AND needs_manual_review = :yes THEN 1 ELSE 0 END) AS pending
         FROM verifications`,
        { day: dayAgo, month: monthAgo, yes: true },
      ),
    ]);
    const approved = num(verifications.approved);
    const decided = approved + num(verifications.unsuccessful);
    return {
      total_users: num(users.total),
      verified_users: num(users.verified),
      active_users: num(users.active),
      registrations_24h: num(users.recent),
      total_partners: num(partners.total),
      active_partners: num(partners.active),
      total_tokens: num(tokens.total),
      total_verifications: num(verifications.total),
      verifications_24h: num(verifications.recent),
      success_rate: decided > 0 ? Math.round((approved / decided) * 1000) / 1000 : null,
      pending_reviews: num(verifications.pending),
      generated_at: now.toISOString(),
    };
  }

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

  /** Continues the hash-chain check from the last verified row, for at most `budgetMs` per call. */
  async function checkChain(budgetMs = 500): Promise<ChainProgress['broken']> {
    if (chain.broken) return chain.broken;
    const deadline = performance.now() + budgetMs;
    while (performance.now() < deadline) {
      const rows = await db.read<Record<string, unknown>>(
        `SELECT id, event_type, severity, user_id, partner_id, admin_user_id, ip_address, user_agent, details,
           created_at, prev_hash, hash FROM audit_logs WHERE id > :last ORDER BY id ASC LIMIT 2000`,
        { last: chain.lastId },
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        const id = Number(row.id);
        const canonical = JSON.stringify([
          row.event_type,
          row.severity,
          row.user_id,
          row.partner_id,
          row.admin_user_id,
          row.ip_address,
          row.user_agent,
          row.details,
          (toDate(row.created_at) as Date).toISOString(),
        ]);
        if (row.prev_hash !== chain.lastHash || sha256(`${chain.lastHash}\n${canonical}`) !== row.hash) {
          chain.broken = { id };
          return chain.broken;
        }
        chain.lastHash = row.hash as string;
        chain.lastId = id;
      }
    }
    return null;
  }

  async function alerts(): Promise<{ alerts: AdminAlert[] }> {
    const now = clock.now();
    const list: AdminAlert[] = [];
    const add = (type: string, severity: AuditSeverity, message: string, since: Date = now) =>
      list.push({
        id: `${type}:${since.getTime()}`,
        type,
        severity,
        message,
        created_at: since.toISOString(),
      });

    const backlog = await one<{ n: number | string; oldest: unknown }>(
      `SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM verifications
       WHERE status = 'pending' AND needs_manual_review = :yes AND created_at < :before`,
      { yes: true, before: new Date(now.getTime() - REVIEW_BACKLOG_MS) },
    );
    if (num(backlog.n) > 0) {
      add(
        'review_backlog',
        'warning',
        `${num(backlog.n)} verification(s) have waited more than 24 hours for review`,
        toDate(backlog.oldest) ?? now,
      );
    }
    const broken = await checkChain();
    if (broken)
      add('audit_chain_broken', 'critical', `The audit log hash chain is broken at entry ${broken.id}`);
    const vision = visionHealth();
    if (vision.status === 'unhealthy') add('model_load_failure', 'error', `Vision engine: ${vision.error}`);
    const disk = await diskHealth();
    if (disk.status !== 'healthy') add('disk_low', 'error', disk.error ?? 'Data directory problem');
    const mail = await mailHealth();
    if (mail.status === 'degraded' || mail.status === 'unhealthy')
      add('mail_failures', 'error', mail.error ?? 'Mail failing');
    const webhooks = await webhookHealth();
    if (webhooks.status === 'degraded')
      add('webhook_failures', 'warning', webhooks.error ?? 'Webhook deliveries failing');
    const signing = await signingKeyHealth();
    if (signing.status === 'degraded')
      add('signing_key_age', 'warning', signing.error ?? 'Signing key is old');
    const migrations = await migrationsHealth();
    if (migrations.status !== 'healthy')
      add('migrations_pending', 'error', migrations.error ?? 'Migrations pending');
    try {
      await recordTransitions(list, now);
    } catch (error) {
      logger.error({ err: error }, 'system alert transitions not recorded');
    }
    return { alerts: list };
  }

  /** Runs a conditional write with RETURNING; true when it changed a row. */
  async function changed(sql: string, params: Record<string, unknown>): Promise<boolean> {
    const statement = `${sql} RETURNING type`;
    if (db.atomic) return (await db.atomic((run) => run.all(statement, params))).length > 0;
    const rows = await db.sequelize.query(statement, { replacements: params, type: QueryTypes.SELECT });
    return rows.length > 0;
  }

  /**
   * Writes a `system_alert` audit entry when a kind of alert starts (spec 02 §4 lists the event) and another when
   * it ends. The state lives in `alert_states`; the transition is one conditional statement, so of several replicas
   * computing the alerts at once exactly one records it.
   */
  async function recordTransitions(list: AdminAlert[], now: Date) {
    const active = new Map(list.map((alert) => [alert.type, alert]));
    for (const type of ALERT_TYPES) {
      const alert = active.get(type);
      if (alert) {
        const started = await changed(
          `INSERT INTO alert_states (type, active, changed_at) VALUES (:type, 1, :now)
           ON CONFLICT (type) DO UPDATE SET active = 1, changed_at = excluded.changed_at
           WHERE alert_states.active = 0`,
          { type, now },
        );
        if (started) {
          await audit.record({
            event: 'system_alert',
            severity: alert.severity,
            details: { alert_type: type, state: 'started', message: alert.message, since: alert.created_at },
          });
        }
      } else {
        const ended = await changed(
          'UPDATE alert_states SET active = 0, changed_at = :now WHERE type = :type AND active = 1',
          { type, now },
        );
        if (ended) {
          await audit.record({
            event: 'system_alert',
            severity: 'info',
            details: { alert_type: type, state: 'ended' },
          });
        }
      }
    }
  }

  return { stats, health, alerts, checkChain, requestCounter: requests.middleware };
}
export type AdminSystemService = ReturnType<typeof createAdminSystemService>;
