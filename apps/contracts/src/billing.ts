import * as v from 'valibot';

/**
 * Plans (spec 01 §3 "Subscription plan", §9): monthly verification quotas, API rate limits and prices (USD per
 * month), defined here once for the API, the web app, the CLI and the back office.
 */
export const PLAN_IDS = ['free', 'starter', 'growth', 'scale'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
/** New partners start on Free (issue 25 item 8): a paid plan is bought (Stripe) or assigned by an operator. */
export const DEFAULT_PLAN: PlanId = 'free';

export interface Plan {
  id: PlanId;
  name: string;
  /** USD per month; 0 for the free plan. */
  price: number;
  /** Billable verifications per calendar month (UTC). */
  verifications: number;
  /** Partner API requests per minute. */
  rate_limit_per_minute: number;
  features: string[];
  is_popular: boolean;
}

/** A plan as GET /partners/subscription/plans shows it: no price while online billing is off. */
export type PlanOffer = Omit<Plan, 'price'> & { price: number | null };

export const PLANS: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    price: 0,
    verifications: 100,
    rate_limit_per_minute: 60,
    features: ['100 verifications per month', 'Age verification', 'Sandbox API key', 'Community support'],
    is_popular: false,
  },
  {
    id: 'starter',
    name: 'Starter',
    price: 49,
    verifications: 1_000,
    rate_limit_per_minute: 300,
    features: [
      '1,000 verifications per month',
      'Age, location and identity verification',
      'Webhooks',
      'Email support',
    ],
    is_popular: false,
  },
  {
    id: 'growth',
    name: 'Growth',
    price: 199,
    verifications: 10_000,
    rate_limit_per_minute: 1_200,
    features: [
      '10,000 verifications per month',
      'Everything in Starter',
      'Delivery log and redelivery for webhooks',
      'Priority support',
    ],
    is_popular: true,
  },
  {
    id: 'scale',
    name: 'Scale',
    price: 799,
    verifications: 100_000,
    rate_limit_per_minute: 6_000,
    features: [
      '100,000 verifications per month',
      'Everything in Growth',
      'Several replicas on PostgreSQL',
      'Dedicated support',
    ],
    is_popular: false,
  },
];

export function findPlan(id: string): Plan | undefined {
  return PLANS.find((plan) => plan.id === id);
}

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'cancelled', 'incomplete'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Usage-bar rules (spec 01 §9). */
export const USAGE_THRESHOLDS = { yellow: 75, red: 90, alert: 80, upgradeHint: 90 } as const;

export const planIdSchema = v.picklist(PLAN_IDS, 'Unknown plan');
export const checkoutSessionQuery = v.object({
  plan_id: v.pipe(
    v.string((issue) =>
      issue.received === 'undefined' || issue.received === 'null' ? 'plan_id is required' : 'Unknown plan',
    ),
    v.picklist(PLAN_IDS, 'Unknown plan'),
  ),
});
export const checkoutSuccessQuery = v.object({
  session_id: v.pipe(
    v.string((issue) =>
      issue.received === 'undefined' || issue.received === 'null' ? 'No session ID provided' : 'Must be text',
    ),
    v.nonEmpty('No session ID provided'),
    v.maxLength(255, 'Invalid session ID'),
    v.regex(/^[A-Za-z0-9_]+$/, 'Invalid session ID'),
  ),
});

export interface SubscriptionUsage {
  current_month_verifications: number;
  verifications_limit: number;
  usage_percentage: number;
}

/** GET /partners/subscription/usage (spec 01 §3 "Subscription"). */
export interface SubscriptionView {
  /** price: null while online billing is off (nothing is charged; operators assign plans). */
  current_plan: { id: PlanId; name: string; price: number | null };
  subscription_status: SubscriptionStatus;
  next_billing_date: string | null;
  /** The usage period: a calendar month (UTC). */
  period_start: string;
  period_end: string;
  usage: SubscriptionUsage;
  /** Whether Stripe is configured (checkout and the customer portal); otherwise operators assign plans. */
  billing_enabled: boolean;
  /** Whether the customer portal can be opened (a Stripe customer exists). */
  can_manage: boolean;
}

/** Percentage of the quota used, rounded to one decimal (may exceed 100 when a plan was lowered mid-month). */
export function usagePercentage(used: number, limit: number): number {
  if (limit <= 0) return 100;
  return Math.round((used / limit) * 1000) / 10;
}

export function usageColor(percentage: number): 'red' | 'yellow' | 'blue' {
  if (percentage >= USAGE_THRESHOLDS.red) return 'red';
  if (percentage >= USAGE_THRESHOLDS.yellow) return 'yellow';
  return 'blue';
}
