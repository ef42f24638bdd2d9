import type Stripe from 'stripe';
import { QueryTypes, type Transaction } from 'sequelize';
import {
  PLANS,
  findPlan,
  usagePercentage,
  type PlanId,
  type PlanOffer,
  type SubscriptionStatus,
  type SubscriptionView,
} from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { AppError, notFound } from '../../../errors';
import type { AuditService } from '../../shared/audit/service';
import type { RequestOrigin } from '../../shared/sessions/service';
import { createStripeClient, periodEnd } from './stripe-client';
import { countUsage, planOf, quotaExceeded, usagePeriod } from './usage';
import { createPlanChanges } from './plan-changes';
import { createStripeEvents } from './stripe-events';

export type { PlanActor } from './plan-changes';

/**
 * Plans, usage and quotas, and Stripe billing (DESIGN.md §6; spec 01 §2 plans and subscription screens, §7, §9).
 * `partners.plan` holds the plan; `partner_subscriptions` its status and Stripe references. Without Stripe
 * configured, billing is off and operators assign plans (`setPartnerPlan`, back office and CLI).
 */
export function createBillingService(deps: Deps, { audit }: { audit: AuditService }) {
  const { db, clock, config, logger } = deps;
  const { Partner, PartnerSubscription } = db.models;
  const stripe = config.stripe ? createStripeClient(config.stripe) : null;
  const plans = createPlanChanges(deps, audit);
  const { upsertSubscription, changePlan, auditPlanChange, setPartnerPlan } = plans;

  function priceFor(plan: PlanId): string | null {
    return config.stripe?.prices[plan] ?? null;
  }
  function planForPrice(price: string | null | undefined): PlanId | null {
    if (!price) return null;
    const entry = Object.entries(config.stripe?.prices ?? {}).find(([, id]) => id === price);
    return entry && findPlan(entry[0]) ? (entry[0] as PlanId) : null;
  }

  /** Stripe being unreachable or refusing a call is the payment provider's failure (502), not ours (500). */
  async function stripeCall<T>(work: () => Promise<T>, detail: string): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const failure = error as { type?: string; statusCode?: number; message?: string };
      if (typeof failure.type !== 'string' || !failure.type.startsWith('Stripe')) throw error;
      if (failure.statusCode === 404) throw notFound('Checkout session not found');
      logger.warn({ err: error }, 'stripe call failed');
      throw new AppError(502, 'billing.stripe_error', detail);
    }
  }

  function requireStripe(): Stripe {
    if (!stripe) {
      throw new AppError(
        503,
        'billing.not_configured',
        'Online billing is not available on this server. Contact your administrator to change your plan.',
      );
    }
    return stripe;
  }

  /** The quota check before a verification is started (one indexed read; the count itself is atomic). */
  async function checkQuota(partnerId: string): Promise<void> {
    const now = clock.now();
    const [row] = await db.read<{ plan: string; used: number | null }>(
      `SELECT p.plan AS plan, u.used AS used FROM partners p
        LEFT JOIN usage_counters u ON u.partner_id = p.id AND u.period = :period WHERE p.id = :id`,
      { id: partnerId, period: usagePeriod(now).key },
    );
    if (!row) return;
    const plan = planOf(row.plan);
    const used = Number(row.used ?? 0);
    if (used >= plan.verifications) throw quotaExceeded(plan, used, now);
  }

  async function usage(partnerId: string): Promise<SubscriptionView> {
    const partner = await Partner.findByPk(partnerId, { attributes: ['id', 'plan'] });
    if (!partner) throw notFound('Partner not found');
    const plan = planOf(partner.plan);
    const now = clock.now();
    const period = usagePeriod(now);
    const [counter] = await db.read<{ used: number }>(
      'SELECT used FROM usage_counters WHERE partner_id = :id AND period = :period',
      { id: partnerId, period: period.key },
    );
    const subscription = await PartnerSubscription.findByPk(partnerId);
    const used = Number(counter?.used ?? 0);
    const status = (subscription?.status ?? 'active') as SubscriptionStatus;
    // Without Stripe nobody is charged: no price and no billing date (issue 25 item 8); the plan is a quota only.
    const nextBilling =
      !stripe || plan.price === 0 || status === 'cancelled'
        ? null
        : (subscription?.current_period_end ?? period.end).toISOString();
    return {
      current_plan: { id: plan.id, name: plan.name, price: stripe ? plan.price : null },
      subscription_status: status,
      next_billing_date: nextBilling,
      period_start: period.start.toISOString(),
      period_end: period.end.toISOString(),
      usage: {
        current_month_verifications: used,
        verifications_limit: plan.verifications,
        usage_percentage: usagePercentage(used, plan.verifications),
      },
      billing_enabled: stripe !== null,
      can_manage: stripe !== null && Boolean(subscription?.stripe_customer_id),
    };
  }

  async function checkoutSession(partnerId: string, planId: PlanId, origin: RequestOrigin) {
    const plan = findPlan(planId);
    if (!plan) throw new AppError(422, 'billing.unknown_plan', 'Unknown plan');
    const partner = await Partner.findByPk(partnerId, { attributes: ['id', 'plan', 'email'] });
    if (!partner) throw notFound('Partner not found');
    if (partner.plan === plan.id) {
      throw new AppError(409, 'billing.current_plan', `You are already on the ${plan.id} plan`);
    }
    if (plan.price === 0) {
      throw new AppError(
        409,
        'billing.free_plan',
        'The free plan needs no payment: cancel your subscription in the subscription management portal',
      );
    }
    const client = requireStripe();
    const price = priceFor(plan.id);
    if (!price) {
      throw new AppError(503, 'billing.price_missing', `The ${plan.name} plan cannot be bought online yet`);
    }
    const subscription = await PartnerSubscription.findByPk(partnerId);
    if (subscription?.stripe_subscription_id && subscription.status !== 'cancelled') {
      throw new AppError(
        409,
        'billing.use_portal',
        'You already have a subscription: change your plan in the subscription management portal',
      );
    }
    const session = await stripeCall(
      () =>
        client.checkout.sessions.create({
          mode: 'subscription',
          line_items: [{ price, quantity: 1 }],
          client_reference_id: partnerId,
          ...(subscription?.stripe_customer_id
            ? { customer: subscription.stripe_customer_id }
            : { customer_email: partner.email }),
          metadata: { partner_id: partnerId, plan: plan.id },
          subscription_data: { metadata: { partner_id: partnerId, plan: plan.id } },
          success_url: `${config.publicUrl}/partner/subscription-success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${config.publicUrl}/partner/plans`,
        }),
      'Failed to start payment process',
    );
    if (!session.url) throw new AppError(502, 'billing.stripe_error', 'Failed to start payment process');
    await audit.recordSafely({
      event: 'partner.checkout_started',
      partnerId,
      ...origin,
      details: { plan: plan.id, session_id: session.id },
    });
    return { checkout_url: session.url, session_id: session.id };
  }

  async function portalSession(partnerId: string) {
    const client = requireStripe();
    const subscription = await PartnerSubscription.findByPk(partnerId);
    if (!subscription?.stripe_customer_id) {
      throw new AppError(409, 'billing.no_customer', 'Subscribe to a paid plan first');
    }
    const customer = subscription.stripe_customer_id;
    const session = await stripeCall(
      () =>
        client.billingPortal.sessions.create({
          customer,
          return_url: `${config.publicUrl}/partner/subscription`,
        }),
      'Failed to open subscription management',
    );
    return { portal_url: session.url };
  }

  /**
   * Activates the plan a completed Checkout Session paid for. Idempotent on the session id: the success page and
   * Stripe's `checkout.session.completed` event may both arrive, in any order, and activate once.
   */
  async function applyCheckoutSession(
    session: Stripe.Checkout.Session,
    source: 'checkout' | 'stripe',
  ): Promise<{ activated: boolean; plan: PlanId }> {
    const partnerId = session.metadata?.partner_id ?? session.client_reference_id;
    const plan = findPlan(session.metadata?.plan ?? '');
    if (!partnerId || !plan)
      throw new AppError(422, 'billing.unknown_session', 'Failed to process subscription');
    if (session.status !== 'complete' || !['paid', 'no_payment_required'].includes(session.payment_status)) {
      throw new AppError(409, 'billing.not_paid', 'The payment has not been completed');
    }
    const subscriptionId =
      typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null);
    const customerId =
      typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null);
    let paidUntil: Date | null = null;
    if (subscriptionId && stripe) {
      const client = stripe;
      paidUntil = periodEnd(
        await stripeCall(
          () => client.subscriptions.retrieve(subscriptionId),
          'Failed to process subscription',
        ),
      );
    }
    const now = clock.now();
    const change = await db.sequelize.transaction(async (transaction) => {
      const claimed = (await db.sequelize.query(
        // The leading comment keeps Sequelize's SQLite dialect from running this as a plain INSERT (no rows back).
        `/* returning */ INSERT INTO stripe_checkout_sessions (id, partner_id, plan, completed_at)
          VALUES (:id, :partner, :plan, :now) ON CONFLICT (id) DO NOTHING RETURNING id`,
        {
          replacements: { id: session.id, partner: partnerId, plan: plan.id, now },
          type: QueryTypes.SELECT,
          transaction,
        },
      )) as unknown[];
      if (claimed.length === 0) return null;
      const changed = await changePlan(partnerId, plan.id, transaction);
      await upsertSubscription(
        partnerId,
        {
          status: 'active',
          stripe_customer_id: customerId,
          stripe_subscription_id: subscriptionId,
          current_period_end: paidUntil,
        },
        transaction,
      );
      return changed;
    });
    if (change) await auditPlanChange(change, { source });
    return { activated: change !== null, plan: plan.id };
  }

  /** GET /partners/subscription/checkout-success: confirms the session with Stripe and activates the plan. */
  async function checkoutSuccess(partnerId: string, sessionId: string) {
    const client = requireStripe();
    const session = await stripeCall(
      () => client.checkout.sessions.retrieve(sessionId),
      'Failed to process subscription',
    );
    const owner = session.metadata?.partner_id ?? session.client_reference_id;
    if (owner !== partnerId) throw notFound('Checkout session not found');
    const { activated, plan } = await applyCheckoutSession(session, 'checkout');
    return { success: true, activated, plan, subscription: await usage(partnerId) };
  }

  const handleStripeWebhook = createStripeEvents(deps, {
    audit,
    plans,
    requireStripe,
    planForPrice,
    applyCheckoutSession,
  });

  return {
    /** Prices only where plans can be bought (Stripe configured); otherwise the operator assigns plans. */
    plans: (): { plans: readonly PlanOffer[] } => ({
      plans: stripe ? PLANS : PLANS.map((plan) => ({ ...plan, price: null })),
    }),
    usage,
    checkQuota,
    /** Counts one billable verification (429 over the quota); verifications are charged by `chargeApproval`. */
    recordUsage: (partnerId: string, transaction?: Transaction) => countUsage(deps, partnerId, transaction),
    setPartnerPlan,
    checkoutSession,
    portalSession,
    checkoutSuccess,
    handleStripeWebhook,
    enabled: stripe !== null,
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
