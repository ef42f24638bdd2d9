import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { PlanOffer } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { Button } from '../../components/ui/button';
import { ErrorState, LoadingState } from '../../components/ui/query-state';
import { useDocumentTitle } from '../../lib/use-document-title';
import { toast } from '../../lib/toast';
import { PageTitle } from '../partner/ui';
import { plansQueryOptions, redirectTo, startCheckout, usageQueryOptions } from './api';

/** spec 01 §9: USD without decimals, per month when above 0. No price at all while billing is off (null). */
export const formatPrice = (price: number | null) =>
  price === null ? null : price > 0 ? `$${price.toFixed(0)}/month` : '$0';

/** Plans (/partner/plans, spec 01 §2): plan cards; a paid plan goes to Stripe Checkout. */
export function PlansPage() {
  useDocumentTitle('Plans');
  const plans = useQuery(plansQueryOptions());
  const usage = useQuery(usageQueryOptions());
  const checkout = useMutation({
    mutationFn: (plan: PlanOffer) => startCheckout(plan.id),
    onSuccess: (answer) => redirectTo(answer.checkout_url),
    onError: (error) => toast.error(errorMessage(error, 'Failed to start payment process')),
  });
  const current = usage.data?.current_plan.id;
  const billing = usage.data?.billing_enabled ?? false;

  function choose(plan: PlanOffer) {
    if (plan.id === 'free' && current === 'free') {
      toast.error('You are already on the free plan');
      return;
    }
    checkout.mutate(plan);
  }

  return (
    <div className="space-y-6">
      <PageTitle title="Plans">
        <Link to="/partner/dashboard" className="text-sm font-semibold text-indigo-700 underline">
          Back to dashboard
        </Link>
      </PageTitle>
      {usage.data && !billing ? (
        <p role="note" className="rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-800">
          Online billing is not available on this server. Contact your administrator to change your plan.
        </p>
      ) : null}
      {plans.isPending ? <LoadingState label="Loading plans…" /> : null}
      {plans.isError ? (
        <ErrorState
          error={null}
          fallback="Failed to load subscription plans"
          onRetry={() => void plans.refetch()}
        />
      ) : null}
      {plans.data ? (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
          {plans.data.map((plan) => {
            const isCurrent = plan.id === current;
            return (
              <li
                key={plan.id}
                aria-label={`${plan.name} plan`}
                className={`flex flex-col rounded-xl border bg-white p-5 shadow-sm ${plan.is_popular ? 'border-indigo-600 ring-1 ring-indigo-600' : 'border-slate-200'}`}
              >
                <div className="flex items-center justify-between gap-2">
                  <h2 className="text-lg font-semibold text-slate-900">{plan.name}</h2>
                  {plan.is_popular ? (
                    <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-semibold text-indigo-800">
                      Most popular
                    </span>
                  ) : null}
                </div>
                {plan.price !== null ? (
                  <p className="mt-2 text-2xl font-bold text-slate-900">{formatPrice(plan.price)}</p>
                ) : null}
                <p className="text-sm text-slate-700">
                  {plan.verifications.toLocaleString('en-US')} verifications per month
                </p>
                <ul className="mt-4 flex-1 space-y-1 text-sm text-slate-700">
                  {plan.features.map((feature) => (
                    <li key={feature}>✓ {feature}</li>
                  ))}
                </ul>
                {isCurrent ? (
                  <Button className="mt-4" variant="secondary" disabled>
                    Current plan
                  </Button>
                ) : billing ? (
                  <Button
                    className="mt-4"
                    variant={plan.is_popular ? 'primary' : 'secondary'}
                    busy={checkout.isPending && checkout.variables?.id === plan.id}
                    disabled={checkout.isPending}
                    onClick={() => choose(plan)}
                  >
                    Choose {plan.name}
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
