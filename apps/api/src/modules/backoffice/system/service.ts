import type { AdminSystemStats } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import type { AuditService } from '../../shared/audit/service';
import { num } from '../../shared/paging/page';
import { createSystemAlerts } from './alerts';
import { DAY, createHealthChecks, readOne } from './health';
import { createRequestCounter } from './request-counter';

export { ALERT_TYPES, ALERT_WATCH_INTERVAL_MS, REVIEW_BACKLOG_MS } from './alerts';
export { LOW_DISK_BYTES, LOW_DISK_RATIO, SIGNING_KEY_MAX_AGE_MS } from './health';
export { createRequestCounter } from './request-counter';

/** How long one computation of the dashboard statistics is served. */
export const STATS_TTL_MS = 15_000;

/**
 * Statistics, health and alerts of the back-office dashboard (spec 02 §3 "Admin system stats", "Health",
 * "Alert"), computed from the database and the running process: nothing is a placeholder.
 */
export function createAdminSystemService(deps: Deps, { audit }: { audit: AuditService }) {
  const { db, clock } = deps;
  const requests = createRequestCounter(clock);
  const one = <T>(sql: string, params: Record<string, unknown> = {}) => readOne<T>(db, sql, params);
  const checks = createHealthChecks(deps, requests);
  const { alerts, checkChain } = createSystemAlerts(deps, audit, checks);
  const { health } = checks;

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

  return { stats, health, alerts, checkChain, requestCounter: requests.middleware };
}
export type AdminSystemService = ReturnType<typeof createAdminSystemService>;
