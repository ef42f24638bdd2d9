import type { PartnerStats, PartnerTopCountry } from '@attestly/contracts';
import type { Database } from '../../../db/database';

const DAY_MS = 86_400_000;
const TREND_DAYS = 30;
const TOP_COUNTRIES = 5;

/** The figures of the statistics overview, as `partner-stats/service.ts` reads them. */
export interface OverviewFigures {
  plan: PartnerStats['plan'];
  total_sites: number | string;
  active_tokens: number | string;
  revoked_tokens: number | string;
  verifications: number | string | null;
  succeeded: number | string | null;
  failed: number | string | null;
  sandbox: number | string | null;
  response_count: number | string | null;
  response_ms_sum: number | string | null;
  current_month: number | string | null;
  previous_month: number | string | null;
  current_period: number | string | null;
  previous_period: number | string | null;
}

const utcMidnight = (ms: number) => {
  const day = new Date(ms);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()));
};

/**
 * The statistics a sandbox API key sees (issue 21 item 7): its partner's sandbox sites, their tokens and their
 * verifications only. The roll-ups count sandbox verifications only in total, so these figures are counted from the
 * sandbox verifications themselves (index `verifications_partner_sandbox`: test traffic, not the live volume).
 * Periods are those of the live figures: calendar months and 30 whole UTC days. Response times are the partner's
 * API calls as a whole, not a sandbox figure: none here.
 */
export function createSandboxStats(db: Pick<Database, 'read'>) {
  async function overview(partnerId: string, now: Date): Promise<OverviewFigures | undefined> {
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const previousMonthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const periodStart = utcMidnight(now.getTime() - (TREND_DAYS - 1) * DAY_MS);
    const previousPeriodStart = utcMidnight(now.getTime() - (2 * TREND_DAYS - 1) * DAY_MS);
    const [row] = await db.read<OverviewFigures>(
      `SELECT partners.plan AS plan,
         (SELECT COUNT(*) FROM sites WHERE sites.partner_id = :partnerId AND sites.deleted_at IS NULL
           AND sites.sandbox = :yes) AS total_sites,
         (SELECT COUNT(*) FROM oauth_authorizations a JOIN sites s ON s.id = a.site_id
           WHERE a.partner_id = :partnerId AND s.sandbox = :yes AND a.revoked_at IS NULL AND a.expires_at > :now)
           AS active_tokens,
         (SELECT COUNT(*) FROM oauth_authorizations a JOIN sites s ON s.id = a.site_id
           WHERE a.partner_id = :partnerId AND s.sandbox = :yes AND a.revoked_at IS NOT NULL) AS revoked_tokens,
         counts.*
       FROM partners CROSS JOIN (
         SELECT COUNT(*) AS verifications,
           SUM(CASE WHEN status = 'approved' THEN 1 ELSE 0 END) AS succeeded,
           SUM(CASE WHEN status IN ('rejected', 'failed') THEN 1 ELSE 0 END) AS failed,
           COUNT(*) AS sandbox, 0 AS response_count, 0 AS response_ms_sum,
           SUM(CASE WHEN created_at >= :monthStart THEN 1 ELSE 0 END) AS current_month,
           SUM(CASE WHEN created_at >= :previousMonthStart AND created_at < :monthStart THEN 1 ELSE 0 END)
             AS previous_month,
           SUM(CASE WHEN created_at >= :periodStart THEN 1 ELSE 0 END) AS current_period,
           SUM(CASE WHEN created_at >= :previousPeriodStart AND created_at < :periodStart THEN 1 ELSE 0 END)
             AS previous_period
         FROM verifications WHERE partner_id = :partnerId AND sandbox = :yes
       ) counts
       WHERE partners.id = :partnerId`,
      { partnerId, now, yes: true, monthStart, previousMonthStart, periodStart, previousPeriodStart },
    );
    return row;
  }

  /** The users' countries of the sandbox verifications (their verified country now). */
  async function topCountries(partnerId: string): Promise<PartnerTopCountry[]> {
    const rows = await db.read<{ country: string; verifications: number | string; total: number | string }>(
      `SELECT users.location_country AS country, COUNT(*) AS verifications,
         SUM(COUNT(*)) OVER () AS total
       FROM verifications v JOIN users ON users.id = v.user_id
       WHERE v.partner_id = :partnerId AND v.sandbox = :yes AND users.location_country IS NOT NULL
       GROUP BY users.location_country ORDER BY verifications DESC, country LIMIT ${TOP_COUNTRIES}`,
      { partnerId, yes: true },
    );
    return rows.map((row) => ({
      country: row.country,
      verifications: Number(row.verifications),
      percentage: Math.round((Number(row.verifications) / Number(row.total)) * 1000) / 10,
    }));
  }

  return { overview, topCountries };
}
