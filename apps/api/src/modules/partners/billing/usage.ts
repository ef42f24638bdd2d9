import { QueryTypes, type Transaction } from 'sequelize';
import { DEFAULT_PLAN, PLANS, findPlan, type Plan } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { AppError } from '../../../errors';

/** The usage period: the calendar month (UTC) holding `at`, as YYYY-MM with its bounds. */
export function usagePeriod(at: Date): { key: string; start: Date; end: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { key: start.toISOString().slice(0, 7), start, end };
}

export const planOf = (id: string | null | undefined): Plan =>
  findPlan(id ?? '') ?? (findPlan(DEFAULT_PLAN) as Plan);

/** SQL for the monthly quota of `p.plan` (PLANS from contracts; an unknown plan counts as the default one). */
const QUOTA_OF_PLAN = `CASE p.plan ${PLANS.map((plan) => `WHEN '${plan.id}' THEN ${plan.verifications}`).join(' ')} ELSE ${planOf(DEFAULT_PLAN).verifications} END`;

/** 429 with Retry-After until the period ends (DESIGN.md §3, §6). */
export function quotaExceeded(plan: Plan, used: number, now: Date): AppError {
  const { end } = usagePeriod(now);
  const seconds = Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
  return new AppError(
    429,
    'billing.quota_exceeded',
    `Monthly verification quota reached (${used.toLocaleString('en-US')} of ${plan.verifications.toLocaleString('en-US')} on the ${plan.name} plan). ` +
      `It resets on ${end.toISOString().slice(0, 10)}; upgrade your plan for more.`,
    undefined,
    { 'Retry-After': String(seconds) },
  );
}

/**
 * Counts one billable verification in its month, atomically and only while under the quota: one conditional
 * upsert (`… DO UPDATE … WHERE used < quota RETURNING used`), so racing requests can never pass the quota. The new
 * count, or null when the quota is reached (nothing counted).
 */
async function countUnderQuota(
  deps: Pick<Deps, 'db' | 'clock'>,
  partnerId: string,
  transaction?: Transaction,
): Promise<number | null> {
  const { db, clock } = deps;
  const now = clock.now();
  // The quota of the partner's plan inside the statement: one round trip, read in the same snapshot as the count.
  const rows = (await db.sequelize.query(
    // The leading comment keeps Sequelize's SQLite dialect from running this as a plain INSERT (no rows back).
    `/* returning */ INSERT INTO usage_counters (partner_id, period, used, updated_at) VALUES (:partner, :period, 1, :now)
      ON CONFLICT (partner_id, period) DO UPDATE SET used = usage_counters.used + 1, updated_at = :now
      WHERE usage_counters.used < (SELECT ${QUOTA_OF_PLAN} FROM partners p WHERE p.id = :partner)
      RETURNING used`,
    {
      replacements: { partner: partnerId, period: usagePeriod(now).key, now },
      type: QueryTypes.SELECT,
      transaction,
    },
  )) as Array<{ used: number | string }>;
  return rows.length === 0 ? null : Number(rows[0]?.used);
}

async function planOfPartner(deps: Pick<Deps, 'db'>, partnerId: string, transaction?: Transaction) {
  const partner = await deps.db.models.Partner.findByPk(partnerId, { attributes: ['plan'], transaction });
  return planOf(partner?.plan);
}

/** Counts one billable verification; over the quota → 429 (and the caller's transaction rolls back). */
export async function countUsage(
  deps: Pick<Deps, 'db' | 'clock'>,
  partnerId: string,
  transaction?: Transaction,
): Promise<number> {
  const used = await countUnderQuota(deps, partnerId, transaction);
  if (used !== null) return used;
  const plan = await planOfPartner(deps, partnerId, transaction);
  throw quotaExceeded(plan, plan.verifications, deps.clock.now());
}

export type ApprovalCharge =
  | { outcome: 'charged'; used: number }
  | { outcome: 'repeat' }
  | { outcome: 'over_quota'; plan: Plan; period: string };

/**
 * Charges an approval made for a partner (issue 21 item 6). Only an outcome the partner benefits from counts: a
 * live approval, once per user, verification type and month (a user proving the same thing again that month proves
 * the partner nothing new). Failed, rejected, pending and sandbox checks never reach this. Over the quota nothing
 * is counted and the caller leaves the verification unattributed: the user's verification is never refused because
 * of a partner's plan. Run in the verification's transaction, after the user's row lock, so that a user's racing
 * approvals cannot both be the first of the month.
 */
export async function chargeApproval(
  deps: Pick<Deps, 'db' | 'clock'>,
  approval: { partnerId: string; userId: string; type: string },
  transaction: Transaction,
): Promise<ApprovalCharge> {
  const { db, clock } = deps;
  const now = clock.now();
  const period = usagePeriod(now);
  const earlier = await db.sequelize.query(
    `SELECT id FROM verifications WHERE user_id = :userId AND partner_id = :partnerId AND verification_type = :type
       AND status = 'approved' AND sandbox = :no AND COALESCE(reviewed_at, created_at) >= :since LIMIT 1`,
    {
      replacements: { ...approval, no: false, since: period.start },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  if (earlier.length > 0) return { outcome: 'repeat' };
  const used = await countUnderQuota(deps, approval.partnerId, transaction);
  if (used !== null) return { outcome: 'charged', used };
  return {
    outcome: 'over_quota',
    plan: await planOfPartner(deps, approval.partnerId, transaction),
    period: period.key,
  };
}
