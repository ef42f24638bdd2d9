import { QueryTypes, type Transaction } from 'sequelize';
import type { VerificationStatus, VerificationType } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import type { Verification } from '../../../db/models/index';
import type { AuditEntry } from '../../shared/audit/service';
import { chargeApproval } from '../../partners/billing/usage';

/**
 * How many verification attempts of one user count for one partner (statistics, webhooks, audit) in a day. Beyond
 * that the user's attempts are still made and recorded, for the user only: someone cannot flood a partner's
 * figures and webhooks with failing checks sent through its sign-in flow.
 */
export const ATTRIBUTED_ATTEMPTS = { perUserPerPartner: 10, windowMs: 24 * 3600_000 } as const;

/** Who a verification counts for: the partner and site of the sign-in flow that sent the user (partner-stats). */
export interface PartnerAttribution {
  partnerId: string;
  siteId: string | null;
  sandbox: boolean;
}

/** An approval the partner's flow led to but that does not count for it: the partner's quota was reached. */
export interface UncountedApproval {
  partnerId: string;
  siteId: string | null;
  verificationType: string;
  plan: string;
  limit: number;
  period: string;
}

/**
 * Decides, in the verification's transaction and after the user's row lock, whether an attempt made from a
 * partner's sign-in flow counts for that partner (issue 21 item 6):
 * - at most `ATTRIBUTED_ATTEMPTS.perUserPerPartner` attempts per user and partner a day are attributed;
 * - an approval counts toward the monthly quota (billing/usage.ts `chargeApproval`); failures never do;
 * - over the quota the verification is made and recorded for the user but not attributed, and the caller tells
 *   the partner (`tellPartner`). A user's own verification is never refused because of a partner's plan.
 */
export async function attributeAttempt(
  deps: Pick<Deps, 'db' | 'clock'>,
  attempt: {
    userId: string;
    type: VerificationType;
    status: VerificationStatus;
    candidate: PartnerAttribution | null;
  },
  transaction: Transaction,
): Promise<{ attribution: PartnerAttribution | null; uncounted: UncountedApproval | null }> {
  const { candidate } = attempt;
  if (!candidate) return { attribution: null, uncounted: null };
  const since = new Date(deps.clock.now().getTime() - ATTRIBUTED_ATTEMPTS.windowMs);
  const [row] = (await deps.db.sequelize.query(
    `SELECT COUNT(*) AS n FROM verifications
      WHERE user_id = :userId AND partner_id = :partnerId AND created_at > :since`,
    {
      replacements: { userId: attempt.userId, partnerId: candidate.partnerId, since },
      type: QueryTypes.SELECT,
      transaction,
    },
  )) as Array<{ n: number | string }>;
  if (Number(row?.n ?? 0) >= ATTRIBUTED_ATTEMPTS.perUserPerPartner)
    return { attribution: null, uncounted: null };
  if (attempt.status !== 'approved' || candidate.sandbox) return { attribution: candidate, uncounted: null };
  const charge = await chargeApproval(
    deps,
    { partnerId: candidate.partnerId, userId: attempt.userId, type: attempt.type },
    transaction,
  );
  if (charge.outcome !== 'over_quota') return { attribution: candidate, uncounted: null };
  return {
    attribution: null,
    uncounted: {
      partnerId: candidate.partnerId,
      siteId: candidate.siteId,
      verificationType: attempt.type,
      plan: charge.plan.id,
      limit: charge.plan.verifications,
      period: charge.period,
    },
  };
}

/**
 * A pending case approved by a reviewer is an approval like any other: it counts toward the partner's quota now,
 * or, over the quota, stops being attributed (the row's partner and site are cleared before it is saved).
 */
export async function chargeReviewedApproval(
  deps: Pick<Deps, 'db' | 'clock'>,
  row: Verification,
  transaction: Transaction,
): Promise<UncountedApproval | null> {
  if (!row.partner_id || row.sandbox) return null;
  if (deps.db.dialect === 'postgres') {
    // The user's row lock, as record() takes it: a user's racing approvals cannot both be the first of the month.
    await deps.db.sequelize.query('SELECT id FROM users WHERE id = :id FOR UPDATE', {
      replacements: { id: row.user_id },
      type: QueryTypes.SELECT,
      transaction,
    });
  }
  const charge = await chargeApproval(
    deps,
    { partnerId: row.partner_id, userId: row.user_id, type: row.verification_type },
    transaction,
  );
  if (charge.outcome !== 'over_quota') return null;
  const uncounted: UncountedApproval = {
    partnerId: row.partner_id,
    siteId: row.site_id,
    verificationType: row.verification_type,
    plan: charge.plan.id,
    limit: charge.plan.verifications,
    period: charge.period,
  };
  row.partner_id = null;
  row.site_id = null;
  return uncounted;
}

/**
 * Tells the partner, in its audit log, that an approval its sign-in flow led to was not counted for it: the site and
 * what was verified, never who (the verification is not the partner's).
 */
export async function tellPartner(
  audit: { recordSafely(entry: AuditEntry): Promise<unknown> },
  uncounted: UncountedApproval,
): Promise<void> {
  await audit.recordSafely({
    event: 'partner.quota_exceeded',
    severity: 'warning',
    partnerId: uncounted.partnerId,
    details: {
      site_id: uncounted.siteId,
      verification_type: uncounted.verificationType,
      plan: uncounted.plan,
      verifications_limit: uncounted.limit,
      period: uncounted.period,
      message: `A verification made from your sign-in flow was not counted for you: the ${uncounted.limit.toLocaleString('en-US')} verifications of your plan this month are used up. Upgrade your plan to keep receiving results.`,
    },
  });
}
