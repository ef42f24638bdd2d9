import { QueryTypes } from 'sequelize';
import type { PartnerRecentVerification, PartnerStats, PartnerTopCountry } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { toBool, toDate } from '../../../db/rows';
import { AppError } from '../../../errors';
import { pairwiseSubject } from '../../../oidc/account';
import { createPartnerAuditLog, type PartnerAuditScope } from './audit-log';
import { createSandboxStats, type OverviewFigures } from './sandbox-stats';

const DAY_MS = 86_400_000;
const TREND_DAYS = 30;
const RECENT_LIMIT = 10;
const TOP_COUNTRIES = 5;
/** The longest a partner's consent figures are reused while nothing they depend on changed. */
const CONSENT_CACHE_MS = 5 * 60_000;

const utcDay = (date: Date) => date.toISOString().slice(0, 10);
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

/** Who a verification counts for: the partner and site of the OIDC interaction that led to it, or an API key. */
export interface Attribution {
  partnerId: string;
  siteId: string | null;
  sandbox: boolean;
}

/** One of the latest verifications or token revocations, with its user's location. */
interface RecentRow {
  kind: 'verification' | 'token_revocation';
  id: string;
  user_id: string;
  site_id: string | null;
  status: string | null;
  verification_type: string | null;
  sandbox: unknown;
  at: unknown;
  location_country: string | null;
  location_state: string | null;
}

/**
 * Partner statistics (spec 01 §3 "Partner stats", §7 GET /partners/stats) read from the roll-ups that database
 * triggers keep on every verification write (migration 20261126030100), so the answer costs a handful of indexed
 * reads however many verifications a partner has. Also the partner's own audit log and the attribution of
 * verifications to the partner whose sign-in flow asked for them.
 *
 * Cost of GET /partners/stats (issue 10: p95 < 200 ms at 1,000,000 verifications), three plain statements through
 * `db.read` (prepared and synchronous on SQLite, no model building), each bounded by an index:
 * - the overview: the partner's plan, its roll-up sums (`partner_stats_daily`, primary key prefix partner_id: at most
 *   one row per site and day), its live sites (`sites_partner_created`) and its token counts
 *   (`oauth_authorizations_partner_revoked`, migration 20261126130000), in one statement;
 * - top countries with their total (`partner_stats_countries`, one row per country);
 * - the ten latest verifications (`verifications_partner_created`) and the ten latest revocations
 *   (`oauth_authorizations_partner_revoked`), with their users by primary key, in one statement.
 * On PostgreSQL the three statements run side by side on the pool.
 */
export function createPartnerStatsService({ db, config, clock, logger }: Deps) {
  const { Site, OidcPayload } = db.models;
  const sandboxStats = createSandboxStats(db);
  const auditLog = createPartnerAuditLog({ db, config });
  const num = (value: number | string | null | undefined) => Number(value ?? 0);

  async function overview(partnerId: string, now: Date): Promise<OverviewFigures | undefined> {
    const monthStart = `${utcDay(now).slice(0, 7)}-01`;
    const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const previousMonthStart = utcDay(previous);
    const periodStart = utcDay(new Date(now.getTime() - (TREND_DAYS - 1) * DAY_MS));
    const previousPeriodStart = utcDay(new Date(now.getTime() - (2 * TREND_DAYS - 1) * DAY_MS));
    const [row] = await db.read<OverviewFigures>(
      `SELECT partners.plan AS plan,
         (SELECT COUNT(*) FROM sites WHERE sites.partner_id = :partnerId AND sites.deleted_at IS NULL)
           AS total_sites,
         (SELECT COUNT(*) FROM oauth_authorizations a WHERE a.partner_id = :partnerId AND a.revoked_at IS NULL
           AND a.expires_at > :now) AS active_tokens,
         (SELECT COUNT(*) FROM oauth_authorizations a WHERE a.partner_id = :partnerId AND a.revoked_at IS NOT NULL)
           AS revoked_tokens,
         sums.*
       FROM partners CROSS JOIN (
         SELECT SUM(verifications) AS verifications, SUM(succeeded) AS succeeded, SUM(failed) AS failed,
           SUM(sandbox) AS sandbox, SUM(response_count) AS response_count, SUM(response_ms_sum) AS response_ms_sum,
           SUM(CASE WHEN day >= :monthStart THEN verifications ELSE 0 END) AS current_month,
           SUM(CASE WHEN day >= :previousMonthStart AND day < :monthStart THEN verifications ELSE 0 END)
             AS previous_month,
           SUM(CASE WHEN day >= :periodStart THEN verifications ELSE 0 END) AS current_period,
           SUM(CASE WHEN day >= :previousPeriodStart AND day < :periodStart THEN verifications ELSE 0 END)
             AS previous_period
         FROM partner_stats_daily WHERE partner_id = :partnerId
       ) sums
       WHERE partners.id = :partnerId`,
      { partnerId, now, monthStart, previousMonthStart, periodStart, previousPeriodStart },
    );
    return row;
  }

  /**
   * Users already verified when they consented (issue 25 item 6): they shared a proven fact with one of the
   * partner's live sites (an age threshold, location or identity on the grant) without any approved verification
   * through the partner's own flows, so the verification rows above never counted them. One per user, dated by
   * their first such consent. One pass over the partner's grants in user order (index
   * oauth_authorizations_partner_user, migration 20261127100100), then one probe per user into
   * verifications_user_created. Read per request: about 0.1 ms per granting user on SQLite (`npm run bench`).
   */
  async function computeConsentFigures(partnerId: string, now: Date) {
    const at = (day: string) => new Date(`${day}T00:00:00.000Z`);
    const monthStart = at(`${utcDay(now).slice(0, 7)}-01`);
    const previousMonthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const periodStart = at(utcDay(new Date(now.getTime() - (TREND_DAYS - 1) * DAY_MS)));
    const previousPeriodStart = at(utcDay(new Date(now.getTime() - (2 * TREND_DAYS - 1) * DAY_MS)));
    const [row] = await db.read<Record<string, number | string | null>>(
      `SELECT COUNT(*) AS total,
         SUM(CASE WHEN first_at >= :monthStart THEN 1 ELSE 0 END) AS current_month,
         SUM(CASE WHEN first_at >= :previousMonthStart AND first_at < :monthStart THEN 1 ELSE 0 END)
           AS previous_month,
         SUM(CASE WHEN first_at >= :periodStart THEN 1 ELSE 0 END) AS current_period,
         SUM(CASE WHEN first_at >= :previousPeriodStart AND first_at < :periodStart THEN 1 ELSE 0 END)
           AS previous_period
       FROM (
         SELECT a.user_id, MIN(a.created_at) AS first_at
         FROM oauth_authorizations a
         WHERE a.partner_id = :partnerId
           AND a.site_id NOT IN (SELECT id FROM sites WHERE partner_id = :partnerId AND sandbox = :yes)
           AND (a.age_threshold IS NOT NULL OR a.scopes LIKE '%location_verification%'
             OR a.scopes LIKE '%identity_verification%')
         GROUP BY a.user_id
       ) consents
       WHERE NOT EXISTS (SELECT 1 FROM verifications v WHERE v.user_id = consents.user_id
         AND v.partner_id = :partnerId AND v.status = 'approved')`,
      { partnerId, yes: true, monthStart, previousMonthStart, periodStart, previousPeriodStart },
    );
    return {
      total: num(row?.total),
      currentMonth: num(row?.current_month),
      previousMonth: num(row?.previous_month),
      currentPeriod: num(row?.current_period),
      previousPeriod: num(row?.previous_period),
    };
  }

  type ConsentFigures = Awaited<ReturnType<typeof computeConsentFigures>>;
  /**
   * The consent figures read every grant of the partner (about 150 ms for 100,000 granting users on SQLite on a
   * busy machine, `npm run bench`), so one computation is kept per partner until what it depends on changes: the
   * partner's grants (their number and newest creation, one index-only read of oauth_authorizations_partner_user)
   * or its approved verifications (the roll-ups' sum, already read), or the UTC day, or CONSENT_CACHE_MS passes.
   * Per process, like every replica's own work; a change is seen at once because it changes the key.
   */
  const consentCache = new Map<string, { key: string; until: number; value: Promise<ConsentFigures> }>();
  async function consentFigures(partnerId: string, now: Date, succeeded: number): Promise<ConsentFigures> {
    const [grants] = await db.read<{ n: number | string; newest: unknown }>(
      'SELECT COUNT(*) AS n, MAX(created_at) AS newest FROM oauth_authorizations WHERE partner_id = :partnerId',
      { partnerId },
    );
    const key = [num(grants?.n), String(grants?.newest ?? ''), succeeded, utcDay(now)].join('|');
    const cached = consentCache.get(partnerId);
    if (cached && cached.key === key && cached.until > now.getTime()) return cached.value;
    const value = computeConsentFigures(partnerId, now);
    if (consentCache.size > 10_000) consentCache.clear();
    consentCache.set(partnerId, { key, until: now.getTime() + CONSENT_CACHE_MS, value });
    value.catch(() => consentCache.delete(partnerId));
    return value;
  }

  async function topCountries(partnerId: string): Promise<PartnerTopCountry[]> {
    // The window sums every country of the partner before LIMIT keeps the first five.
    const rows = await db.read<{ country: string; verifications: number | string; total: number | string }>(
      `SELECT country, verifications, SUM(verifications) OVER () AS total FROM partner_stats_countries
       WHERE partner_id = :partnerId ORDER BY verifications DESC, country LIMIT ${TOP_COUNTRIES}`,
      { partnerId },
    );
    return rows.map((row) => ({
      country: row.country,
      verifications: num(row.verifications),
      percentage: percent(num(row.verifications), num(row.total)) ?? 0,
    }));
  }

  async function recent(partnerId: string, sandboxOnly: boolean): Promise<PartnerRecentVerification[]> {
    // The ten latest of each kind, newest first within its kind, with the user's location: one statement. A sandbox
    // key's: sandbox verifications (index verifications_partner_sandbox) and revocations at sandbox sites.
    const onlySandbox = sandboxOnly
      ? {
          verifications: 'AND sandbox = :yes',
          revocations:
            'AND site_id IN (SELECT id FROM sites WHERE partner_id = :partnerId AND sandbox = :yes)',
        }
      : { verifications: '', revocations: '' };
    const found = await db.read<RecentRow>(
      `SELECT r.kind, r.id, r.user_id, r.site_id, r.status, r.verification_type, r.sandbox, r.at,
         users.location_country, users.location_state
       FROM (
         SELECT * FROM (
           SELECT 'verification' AS kind, CAST(id AS TEXT) AS id, user_id, CAST(site_id AS TEXT) AS site_id,
             status, verification_type, sandbox, created_at AS at
           FROM verifications WHERE partner_id = :partnerId ${onlySandbox.verifications}
           ORDER BY created_at DESC LIMIT ${RECENT_LIMIT}
         ) v
         UNION ALL
         SELECT * FROM (
           SELECT 'token_revocation' AS kind, CAST(id AS TEXT) AS id, user_id, CAST(site_id AS TEXT) AS site_id,
             NULL AS status, NULL AS verification_type, CAST(NULL AS BOOLEAN) AS sandbox, revoked_at AS at
           FROM oauth_authorizations WHERE partner_id = :partnerId AND revoked_at IS NOT NULL
             ${onlySandbox.revocations}
           ORDER BY revoked_at DESC LIMIT ${RECENT_LIMIT}
         ) t
       ) r LEFT JOIN users ON users.id = r.user_id`,
      sandboxOnly ? { partnerId, yes: true } : { partnerId },
    );
    const newestFirst = (kind: RecentRow['kind']) =>
      found
        .filter((row) => row.kind === kind)
        .map((row) => ({ row, at: (toDate(row.at) as Date).toISOString() }))
        .sort((a, b) => b.at.localeCompare(a.at));
    const location = (row: RecentRow) =>
      row.location_country ? [row.location_state, row.location_country].filter(Boolean).join(', ') : null;
    const subject = (userId: string) => pairwiseSubject(config.masterKey, partnerId, userId);
    const items: PartnerRecentVerification[] = [
      ...newestFirst('verification').map(({ row, at }) => ({
        id: row.id,
        type: 'verification' as const,
        user: subject(row.user_id),
        location: location(row),
        status:
          row.status === 'approved'
            ? ('success' as const)
            : row.status === 'pending'
              ? ('pending' as const)
              : ('failed' as const),
        verification_type: row.verification_type as PartnerRecentVerification['verification_type'],
        site_id: row.site_id,
        sandbox: toBool(row.sandbox),
        timestamp: at,
      })),
      ...newestFirst('token_revocation').map(({ row, at }) => ({
        id: row.id,
        type: 'token_revocation' as const,
        user: subject(row.user_id),
        location: location(row),
        status: 'success' as const,
        verification_type: null,
        site_id: row.site_id,
        sandbox: sandboxOnly,
        timestamp: at,
      })),
    ];
    return items.sort((a, b) => b.timestamp.localeCompare(a.timestamp)).slice(0, RECENT_LIMIT);
  }

  return {
    /**
     * The partner's statistics. A sandbox API key (`sandboxOnly`, issue 21 item 7) gets the same figures about its
     * sandbox sites only: their verifications (in every figure, and in `sandbox_verifications`), tokens and
     * revocations; the live roll-ups, countries and response times are not its to see.
     */
    async forPartner(partnerId: string, scope: PartnerAuditScope = {}): Promise<PartnerStats> {
      const now = clock.now();
      const sandboxOnly = scope.sandboxOnly ?? false;
      const noConsents = { total: 0, currentMonth: 0, previousMonth: 0, currentPeriod: 0, previousPeriod: 0 };
      const [sum, countries, recentItems] = await Promise.all([
        sandboxOnly ? sandboxStats.overview(partnerId, now) : overview(partnerId, now),
        sandboxOnly ? sandboxStats.topCountries(partnerId) : topCountries(partnerId),
        recent(partnerId, sandboxOnly),
      ]);
      if (!sum) throw new AppError(404, 'partners.not_found', 'Partner not found');
      // Sandbox sites serve test users: their consents are not the partner's verified users.
      const consents = sandboxOnly ? noConsents : await consentFigures(partnerId, now, num(sum.succeeded));
      const succeeded = num(sum.succeeded) + consents.total;
      const failed = num(sum.failed);
      const currentPeriod = num(sum.current_period) + consents.currentPeriod;
      const previousPeriod = num(sum.previous_period) + consents.previousPeriod;
      const responses = num(sum.response_count);
      return {
        total_sites: num(sum.total_sites),
        total_verifications: num(sum.verifications) + consents.total,
        successful_verifications: succeeded,
        failed_verifications: failed,
        success_rate: percent(succeeded, succeeded + failed),
        monthly_usage: {
          current_month: num(sum.current_month) + consents.currentMonth,
          previous_month: num(sum.previous_month) + consents.previousMonth,
        },
        trend: {
          current_period: currentPeriod,
          previous_period: previousPeriod,
          change_percent:
            previousPeriod > 0
              ? Math.round(((currentPeriod - previousPeriod) / previousPeriod) * 1000) / 10
              : null,
        },
        plan: sum.plan,
        active_tokens: num(sum.active_tokens),
        revoked_tokens: num(sum.revoked_tokens),
        avg_response_time_ms: responses > 0 ? Math.round(num(sum.response_ms_sum) / responses) : null,
        top_countries: countries,
        recent_verifications: recentItems,
        sandbox_verifications: num(sum.sandbox),
        verified_at_consent: consents.total,
      };
    },

    /** Verification counts per site (the site cards), from the roll-ups. */
    async siteVerificationCounts(partnerId: string): Promise<Map<string, number>> {
      const rows = await db.sequelize.query<{ site_id: string; total: number | string }>(
        `SELECT site_id, SUM(verifications) + SUM(sandbox) AS total FROM partner_stats_daily
         WHERE partner_id = :partnerId AND site_id <> '' GROUP BY site_id`,
        { type: QueryTypes.SELECT, replacements: { partnerId } },
      );
      return new Map(rows.map((row) => [row.site_id, num(row.total)]));
    },

    /** Adds one measured server-to-server call (API key) to today's roll-up: the dashboard's response time. */
    async recordResponse(partnerId: string, ms: number): Promise<void> {
      try {
        await db.sequelize.query(
          `INSERT INTO partner_stats_daily
             (partner_id, site_id, day, verifications, succeeded, failed, sandbox, response_count, response_ms_sum)
           VALUES (:partnerId, '', :day, 0, 0, 0, 0, 1, :ms)
           ON CONFLICT (partner_id, site_id, day) DO UPDATE SET
             response_count = partner_stats_daily.response_count + 1,
             response_ms_sum = partner_stats_daily.response_ms_sum + excluded.response_ms_sum`,
          { replacements: { partnerId, day: utcDay(clock.now()), ms } },
        );
      } catch (error) {
        logger.warn({ err: error }, 'partner response time not recorded');
      }
    },

    /**
     * The partner and site a verification counts for: the OIDC interaction the user came from (the consent
     * screen's "Verify now" sends its uid), when it is live and belongs to this user. Null otherwise.
     */
    async attributionFor(
      userId: string,
      interactionUid: string | null | undefined,
    ): Promise<Attribution | null> {
      if (!interactionUid || !/^[A-Za-z0-9_-]{1,64}$/.test(interactionUid)) return null;
      const row = await OidcPayload.findOne({ where: { model: 'Interaction', id: interactionUid } });
      if (!row || (row.expires_at && row.expires_at <= clock.now())) return null;
      const payload = JSON.parse(row.payload) as {
        params?: { client_id?: string };
        session?: { accountId?: string };
      };
      if (payload.session?.accountId !== userId || !payload.params?.client_id) return null;
      const site = await Site.findOne({
        where: { client_id: payload.params.client_id, deleted_at: null },
        attributes: ['id', 'partner_id', 'sandbox'],
      });
      return site ? { partnerId: site.partner_id, siteId: site.id, sandbox: site.sandbox } : null;
    },

    /** GET /partners/audit-logs (modules/partners/stats/audit-log.ts). */
    auditLogs: auditLog.list,
  };
}
export type PartnerStatsService = ReturnType<typeof createPartnerStatsService>;
