import { nullable, plainTable, primaryKey, required, sql } from './columns';

/**
 * A partner's subscription state beside `partners.plan` (the plan itself): status and, with Stripe, the customer,
 * the subscription and the end of the paid period.
 */
export class PartnerSubscription extends plainTable('partner_subscriptions', {
  partner_id: primaryKey(sql.uuid()),
  status: required(sql.string(16)),
  stripe_customer_id: nullable(sql.string(255)),
  stripe_subscription_id: nullable(sql.string(255)),
  current_period_end: nullable(sql.date()),
  updated_at: required(sql.date()),
}) {}
