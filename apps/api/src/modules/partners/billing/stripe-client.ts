import Stripe from 'stripe';

/**
 * The official Stripe SDK, configured from ATTESTLY_* settings. `ATTESTLY_STRIPE_API_URL` points it elsewhere
 * (a proxy; the local fake in tests) through the SDK's own host/port/protocol options.
 */
export function createStripeClient(stripe: { secretKey: string; apiUrl: string | null }): Stripe {
  const target = stripe.apiUrl ? new URL(stripe.apiUrl) : null;
  return new Stripe(stripe.secretKey, {
    maxNetworkRetries: 1,
    timeout: 15_000,
    telemetry: false,
    appInfo: { name: 'Attestly' },
    ...(target
      ? {
          host: target.hostname,
          port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
          protocol: target.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** A subscription's paid-until time: on the subscription (older API versions) or on its items (2025-03-31+). */
export function periodEnd(subscription: Stripe.Subscription): Date | null {
  const legacy = (subscription as unknown as { current_period_end?: number }).current_period_end;
  const item = subscription.items?.data?.[0] as unknown as { current_period_end?: number } | undefined;
  const seconds = legacy ?? item?.current_period_end;
  return typeof seconds === 'number' ? new Date(seconds * 1000) : null;
}

export function subscriptionStatus(
  status: Stripe.Subscription.Status,
): 'active' | 'past_due' | 'cancelled' | 'incomplete' {
  if (status === 'active' || status === 'trialing') return 'active';
  if (status === 'past_due' || status === 'unpaid' || status === 'paused') return 'past_due';
  if (status === 'canceled' || status === 'incomplete_expired') return 'cancelled';
  return 'incomplete';
}
