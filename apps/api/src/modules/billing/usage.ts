import { QueryTypes, type Transaction } from 'sequelize';
import { DEFAULT_PLAN, PLANS, findPlan, type Plan } from '@attestly/contracts';
import type { Deps } from '../../deps';
import type { Verification } from '../../db/models';
import { AppError } from '../../errors';

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
 * upsert (`… DO UPDATE … WHERE used < quota RETURNING used`), so racing requests can never pass the quota. Over
 * the quota → 429, and the caller's transaction (the verification) rolls back.
 */
export async function countUsage(
  deps: Pick<Deps, 'db' | 'clock'>,
  partnerId: string,
  transaction?: Transaction,
): Promise<number> {
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
  if (rows.length === 0) {
    const partner = await db.models.Partner.findByPk(partnerId, { attributes: ['plan'], transaction });
    const plan = planOf(partner?.plan);
    throw quotaExceeded(plan, plan.verifications, now);
  }
  return Number(rows[0]?.used);
}

/** A verification made for a partner counts toward its quota unless it was made in the sandbox. */
export async function chargeVerification(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: Verification,
  transaction?: Transaction,
): Promise<void> {
  if (!row.partner_id || (row as { sandbox?: boolean }).sandbox) return;
  await countUsage(deps, row.partner_id, transaction);
}
