import type Stripe from 'stripe';
import { QueryTypes } from 'sequelize';
import type { PlanId } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { AppError } from '../../../errors';
import type { AuditService } from '../../shared/audit/service';
import type { PlanChanges } from './plan-changes';
import { periodEnd, subscriptionStatus } from './stripe-client';

/** What the Stripe events need from the rest of billing (service.ts). */
interface Billing {
  audit: AuditService;
  plans: PlanChanges;
  requireStripe(): Stripe;
  planForPrice(price: string | null | undefined): PlanId | null;
  applyCheckoutSession(session: Stripe.Checkout.Session, source: 'checkout' | 'stripe'): Promise<unknown>;
}

/** Stripe's webhook events (DESIGN.md §6): completed checkouts, subscription changes and invoices. */
export function createStripeEvents(
  { db, clock, config, logger }: Pick<Deps, 'db' | 'clock' | 'config' | 'logger'>,
  { audit, plans, requireStripe, planForPrice, applyCheckoutSession }: Billing,
) {
  const { Partner, PartnerSubscription } = db.models;
  const { changePlan, upsertSubscription, auditPlanChange } = plans;
  const webhookSecret = config.stripe?.webhookSecret ?? null;

  async function partnerForStripe(object: {
    customer?: unknown;
    metadata?: Stripe.Metadata | null;
    id?: string;
  }) {
    const fromMetadata = object.metadata?.partner_id;
    if (fromMetadata && (await Partner.count({ where: { id: fromMetadata } }))) return fromMetadata;
    const customer =
      typeof object.customer === 'string' ? object.customer : (object.customer as { id?: string } | null)?.id;
    if (!customer) return null;
    const row = await PartnerSubscription.findOne({ where: { stripe_customer_id: customer } });
    return row?.partner_id ?? null;
  }

  async function onSubscription(subscription: Stripe.Subscription, deleted: boolean) {
    const partnerId = await partnerForStripe(subscription);
    if (!partnerId) return;
    const current = await PartnerSubscription.findByPk(partnerId);
    if (current?.stripe_subscription_id && current.stripe_subscription_id !== subscription.id) return;
    if (deleted || subscription.status === 'canceled') {
      const change = await db.sequelize.transaction(async (transaction) => {
        const changed = await changePlan(partnerId, 'free', transaction);
        await upsertSubscription(
          partnerId,
          { status: 'cancelled', stripe_subscription_id: null, current_period_end: null },
          transaction,
        );
        return changed;
      });
      await auditPlanChange(change, { source: 'stripe' });
      return;
    }
    const plan = planForPrice(subscription.items?.data?.[0]?.price?.id);
    const change = await db.sequelize.transaction(async (transaction) => {
      const changed = plan ? await changePlan(partnerId, plan, transaction) : null;
      await upsertSubscription(
        partnerId,
        {
          status: subscriptionStatus(subscription.status),
          stripe_subscription_id: subscription.id,
          stripe_customer_id: typeof subscription.customer === 'string' ? subscription.customer : null,
          current_period_end: periodEnd(subscription),
        },
        transaction,
      );
      return changed;
    });
    if (change) await auditPlanChange(change, { source: 'stripe' });
  }

  async function onInvoice(invoice: Stripe.Invoice, paid: boolean) {
    const partnerId = await partnerForStripe(invoice);
    if (!partnerId) return;
    const line = invoice.lines?.data?.[0] as unknown as { period?: { end?: number } } | undefined;
    await upsertSubscription(partnerId, {
      status: paid ? 'active' : 'past_due',
      ...(paid && line?.period?.end ? { current_period_end: new Date(line.period.end * 1000) } : {}),
    });
    await audit.recordSafely({
      event: paid ? 'partner.invoice_paid' : 'partner.invoice_payment_failed',
      severity: paid ? 'info' : 'warning',
      partnerId,
      details: { invoice_id: invoice.id },
    });
  }

  /**
   * POST /api/v1/stripe/webhook: the signature is checked by the official SDK on the raw body (`constructEvent`,
   * 5-minute tolerance); each event id is handled once (a replayed event is acknowledged and ignored).
   */
  async function handleStripeWebhook(rawBody: Buffer, signature: string | undefined) {
    const client = requireStripe();
    if (!signature) throw new AppError(400, 'stripe.missing_signature', 'Missing Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = client.webhooks.constructEvent(rawBody, signature, webhookSecret as string);
    } catch {
      throw new AppError(400, 'stripe.invalid_signature', 'Invalid Stripe signature');
    }
    const fresh = (await db.sequelize.query(
      // The leading comment keeps Sequelize's SQLite dialect from running this as a plain INSERT (no rows back).
      `/* returning */ INSERT INTO stripe_events (id, type, received_at) VALUES (:id, :type, :now)
        ON CONFLICT (id) DO NOTHING RETURNING id`,
      { replacements: { id: event.id, type: event.type, now: clock.now() }, type: QueryTypes.SELECT },
    )) as unknown[];
    if (fresh.length === 0) return { received: true, duplicate: true };
    try {
      switch (event.type) {
        case 'checkout.session.completed':
          if (event.data.object.mode === 'subscription') {
            await applyCheckoutSession(event.data.object, 'stripe');
          }
          break;
        case 'customer.subscription.updated':
          await onSubscription(event.data.object, false);
          break;
        case 'customer.subscription.deleted':
          await onSubscription(event.data.object, true);
          break;
        case 'invoice.paid':
          await onInvoice(event.data.object, true);
          break;
        case 'invoice.payment_failed':
          await onInvoice(event.data.object, false);
          break;
        default:
          break;
      }
    } catch (error) {
      // Forget the event so Stripe's retry is handled again.
      await db.sequelize.query('DELETE FROM stripe_events WHERE id = :id', {
        replacements: { id: event.id },
        type: QueryTypes.BULKDELETE,
      });
      logger.error({ err: error, stripe_event: event.id, type: event.type }, 'stripe webhook failed');
      throw error;
    }
    return { received: true, duplicate: false };
  }

  return handleStripeWebhook;
}
