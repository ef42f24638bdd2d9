import { queryOptions } from '@tanstack/react-query';
import type { PlanId, PlanOffer, SubscriptionView } from '@attestly/contracts';
import { apiFetch } from '../../api/client';
import { getQueryOptions } from '../../api/get-query';

export const billingKeys = {
  all: ['partner', 'billing'] as const,
  plans: () => [...billingKeys.all, 'plans'] as const,
  usage: () => [...billingKeys.all, 'usage'] as const,
};

/** GET /partners/subscription/plans (spec 01 §7: the answer's data.plans). */
export const plansQueryOptions = () =>
  queryOptions({
    queryKey: billingKeys.plans(),
    queryFn: ({ signal }) =>
      apiFetch<{ data: { plans: PlanOffer[] } }>('/partners/subscription/plans', {
        auth: 'partner',
        signal,
      }).then((answer) => answer.data.plans),
    staleTime: 5 * 60_000,
  });

/** GET /partners/subscription/usage: plan, status, next billing date and usage (spec 01 §3 "Subscription"). */
export const usageQueryOptions = () =>
  getQueryOptions<SubscriptionView>(billingKeys.usage(), '/partners/subscription/usage', 'partner');

export const startCheckout = (plan: PlanId) =>
  apiFetch<{ checkout_url: string }>(
    `/partners/subscription/checkout-session?plan_id=${encodeURIComponent(plan)}`,
    { method: 'POST', auth: 'partner' },
  );

export const openPortal = () =>
  apiFetch<{ portal_url: string }>('/partners/subscription/portal-session', {
    method: 'POST',
    auth: 'partner',
  });

export const confirmCheckout = (sessionId: string) =>
  apiFetch<{ success: boolean; activated: boolean; plan: PlanId; subscription: SubscriptionView }>(
    `/partners/subscription/checkout-success?session_id=${encodeURIComponent(sessionId)}`,
    { auth: 'partner' },
  );

/** Sends the browser to Stripe (checkout or portal); a function so tests can watch it. */
export function redirectTo(url: string): void {
  window.location.assign(url);
}
