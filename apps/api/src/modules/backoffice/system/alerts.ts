import { QueryTypes } from 'sequelize';
import type { AdminAlert, AuditSeverity } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { toDate } from '../../../db/rows';
import { sha256 } from '../../../lib/crypto';
import { GENESIS_HASH, type AuditService } from '../../shared/audit/service';
import { num } from '../../shared/paging/page';
import { DAY, readOne, type HealthChecks } from './health';

/** An unreviewed case older than this raises an alert (issue 9). */
export const REVIEW_BACKLOG_MS = DAY;
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

interface ChainProgress {
  lastId: number;
  lastHash: string;
  broken: { id: number } | null;
}

/**
 * The dashboard's alerts (spec 02 §3 "Alert"): what needs a person now, from the health checks, the review backlog
 * and the audit chain; each kind's start and end is written to the audit log once, whichever replica sees it first.
 */
export function createSystemAlerts(deps: Deps, audit: AuditService, checks: HealthChecks) {
  const { db, clock, logger } = deps;
  const { visionHealth, diskHealth, mailHealth, webhookHealth, signingKeyHealth, migrationsHealth } = checks;
  const one = <T>(sql: string, params: Record<string, unknown> = {}) => readOne<T>(db, sql, params);
  // The audit chain is checked incrementally: each call continues from where the last one stopped.
  const chain: ChainProgress = { lastId: 0, lastHash: GENESIS_HASH, broken: null };

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

  return { alerts, checkChain };
}
