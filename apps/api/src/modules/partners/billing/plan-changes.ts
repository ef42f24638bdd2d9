import type { Transaction } from 'sequelize';
import { findPlan, type SubscriptionStatus } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { AppError, notFound } from '../../../errors';
import type { AuditService } from '../../shared/audit/service';
import type { RequestOrigin } from '../../shared/sessions/service';

export interface PlanActor {
  adminUserId?: string | null;
  origin?: RequestOrigin;
  /** Who changed it, for the audit entry: 'admin', 'cli', 'stripe', 'checkout'. */
  source?: string;
}

/**
 * How a partner's plan changes, whoever changes it (an operator, Checkout, a Stripe event): the plan and the
 * subscription row written in one transaction, then one audit entry if the plan moved.
 */
export function createPlanChanges({ db, clock }: Pick<Deps, 'db' | 'clock'>, audit: AuditService) {
  const { Partner, PartnerSubscription } = db.models;

  async function upsertSubscription(
    partnerId: string,
    values: Partial<{
      status: SubscriptionStatus;
      stripe_customer_id: string | null;
      stripe_subscription_id: string | null;
      current_period_end: Date | null;
    }>,
    transaction?: Transaction,
  ) {
    const now = clock.now();
    const existing = await PartnerSubscription.findByPk(partnerId, { transaction });
    if (existing) await existing.update({ ...values, updated_at: now }, { transaction });
    else
      await PartnerSubscription.create(
        {
          partner_id: partnerId,
          status: values.status ?? 'active',
          stripe_customer_id: values.stripe_customer_id ?? null,
          stripe_subscription_id: values.stripe_subscription_id ?? null,
          current_period_end: values.current_period_end ?? null,
          updated_at: now,
        },
        { transaction },
      );
  }

  /** Writes the plan in the caller's transaction; the caller audits after commit (`auditPlanChange`). */
  async function changePlan(partnerId: string, planId: string, transaction?: Transaction) {
    const plan = findPlan(planId);
    if (!plan) throw new AppError(422, 'billing.unknown_plan', 'Unknown plan');
    const partner = await Partner.findByPk(partnerId, { attributes: ['id', 'plan'], transaction });
    if (!partner) throw notFound('Partner not found');
    const previous = partner.plan;
    if (previous !== plan.id) {
      await Partner.update({ plan: plan.id }, { where: { id: partnerId }, transaction });
    }
    return { partnerId, from: previous, to: plan.id, changed: previous !== plan.id };
  }

  async function auditPlanChange(change: Awaited<ReturnType<typeof changePlan>>, actor: PlanActor) {
    if (!change.changed) return;
    await audit.recordSafely({
      event: 'partner.plan_changed',
      partnerId: change.partnerId,
      adminUserId: actor.adminUserId ?? null,
      ip: actor.origin?.ip ?? null,
      userAgent: actor.origin?.userAgent ?? null,
      details: { from: change.from, to: change.to, source: actor.source ?? 'operator' },
    });
  }

  /**
   * Assigns a plan (operators: back office and CLI). Audited with the old and new plan. Returns false when the
   * partner already had that plan.
   */
  async function setPartnerPlan(partnerId: string, planId: string, actor: PlanActor = {}): Promise<boolean> {
    const change = await db.sequelize.transaction(async (transaction) => {
      const result = await changePlan(partnerId, planId, transaction);
      await upsertSubscription(partnerId, { status: 'active' }, transaction);
      return result;
    });
    await auditPlanChange(change, actor);
    return change.changed;
  }

  return { upsertSubscription, changePlan, auditPlanChange, setPartnerPlan };
}
export type PlanChanges = ReturnType<typeof createPlanChanges>;
