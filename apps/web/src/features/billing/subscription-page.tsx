import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { errorMessage } from '../../api/client';
import { Button } from '../../components/ui/button';
import { ErrorState, LoadingState } from '../../components/ui/query-state';
import { useDocumentTitle } from '../../lib/use-document-title';
import { toast } from '../../lib/toast';
import { PageTitle, Panel } from '../partner/ui';
import { openPortal, redirectTo, usageQueryOptions } from './api';
import { formatPrice } from './plans-page';
import { UsageBar } from './usage-bar';

/** spec 01 §4 "Subscription status": active green, past_due yellow, cancelled red, others grey. */
const STATUS: Record<string, string> = {
  active: 'bg-emerald-50 text-emerald-800',
  past_due: 'bg-amber-50 text-amber-900',
  cancelled: 'bg-red-50 text-red-800',
};

export function SubscriptionStatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS[status] ?? 'bg-slate-100 text-slate-800'}`}
    >
      {status.replace('_', ' ')}
    </span>
  );
}

/**
 * Subscription (/partner/subscription, spec 01 §2): current plan, status, next billing date and usage. A
 * `session_id` in the address (back from Checkout) shows the success toast once and is then removed.
 */
export function SubscriptionPage({ sessionId }: { sessionId?: string }) {
  useDocumentTitle('Subscription');
  const navigate = useNavigate();
  const usage = useQuery(usageQueryOptions());
  const toasted = useRef(false);
  useEffect(() => {
    if (!sessionId || toasted.current) return;
    toasted.current = true;
    toast.success('Subscription activated successfully!');
    void navigate({ to: '/partner/subscription', search: {}, replace: true });
  }, [sessionId, navigate]);
  const portal = useMutation({
    mutationFn: openPortal,
    onSuccess: (answer) => redirectTo(answer.portal_url),
    onError: (error) => toast.error(errorMessage(error, 'Failed to open subscription management')),
  });

  return (
    <div className="space-y-6">
      <PageTitle title="Subscription">
        <Link to="/partner/plans" className="text-sm font-semibold text-indigo-700 underline">
          View plans
        </Link>
      </PageTitle>
      {usage.isPending ? <LoadingState label="Loading subscription…" /> : null}
      {usage.isError ? (
        <ErrorState
          error={null}
          fallback="Failed to load subscription information"
          onRetry={() => void usage.refetch()}
        />
      ) : null}
      {usage.data ? (
        <>
          <Panel
            title="Current plan"
            actions={
              usage.data.can_manage ? (
                <Button variant="secondary" busy={portal.isPending} onClick={() => portal.mutate()}>
                  Manage subscription
                </Button>
              ) : null
            }
          >
            <dl className="grid gap-3 text-sm sm:grid-cols-3">
              <div>
                <dt className="text-slate-600">Plan</dt>
                <dd className="text-base font-semibold text-slate-900">
                  {usage.data.current_plan.name}
                  {usage.data.current_plan.price !== null
                    ? ` · ${formatPrice(usage.data.current_plan.price)}`
                    : null}
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Status</dt>
                <dd>
                  <SubscriptionStatusBadge status={usage.data.subscription_status} />
                </dd>
              </div>
              {usage.data.billing_enabled ? (
                <div>
                  <dt className="text-slate-600">Next billing date</dt>
                  <dd>
                    {usage.data.next_billing_date
                      ? new Date(usage.data.next_billing_date).toLocaleDateString('en-US', {
                          dateStyle: 'medium',
                        })
                      : '—'}
                  </dd>
                </div>
              ) : null}
            </dl>
            {!usage.data.billing_enabled ? (
              <p className="mt-4 text-sm text-slate-700">
                Online billing is not available on this server. Contact your administrator to change your
                plan.
              </p>
            ) : null}
          </Panel>
          <Panel title="Usage">
            <UsageBar usage={usage.data.usage} />
          </Panel>
        </>
      ) : null}
    </div>
  );
}
