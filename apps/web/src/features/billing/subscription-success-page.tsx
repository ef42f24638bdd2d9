import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/client';
import { buttonClass, Spinner } from '../../components/ui/button';
import { useDocumentTitle } from '../../lib/use-document-title';
import { toast } from '../../lib/toast';
import { PageTitle, Panel } from '../partner/ui';
import { billingKeys, confirmCheckout } from './api';

/** spec 01 §9: the checkout success page redirects after 2 s. */
export const SUCCESS_REDIRECT_MS = 2000;

/**
 * Checkout success (/partner/subscription-success, spec 01 §2, §8): confirms the session with the API (which asks
 * Stripe and activates the plan), then goes to /partner/subscription after 2 s.
 */
export function SubscriptionSuccessPage({ sessionId }: { sessionId?: string }) {
  useDocumentTitle('Subscription');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const started = useRef(false);
  const confirm = useMutation({
    mutationFn: confirmCheckout,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: billingKeys.all });
      toast.success('Subscription activated successfully!');
    },
    onError: () => toast.error('Failed to activate subscription'),
  });
  const { mutate } = confirm;
  useEffect(() => {
    if (!sessionId || started.current) return;
    started.current = true;
    mutate(sessionId);
  }, [sessionId, mutate]);
  useEffect(() => {
    if (!confirm.isSuccess) return;
    const timer = setTimeout(() => void navigate({ to: '/partner/subscription' }), SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [confirm.isSuccess, navigate]);

  const failure = !sessionId
    ? 'No session ID provided'
    : confirm.isError
      ? errorMessage(confirm.error, 'Failed to process subscription')
      : null;

  return (
    <div className="space-y-6">
      <PageTitle title="Subscription" />
      <Panel title={failure ? 'Subscription not activated' : 'Activating your subscription'}>
        {failure ? (
          <div className="space-y-4">
            <p role="alert" className="text-sm text-red-800">
              {failure}
            </p>
            <div className="flex flex-wrap gap-2">
              <Link to="/partner/plans" className={buttonClass('primary')}>
                Try Again
              </Link>
              <Link to="/partner/dashboard" className={buttonClass('secondary')}>
                Back to Dashboard
              </Link>
            </div>
          </div>
        ) : confirm.isSuccess ? (
          <p role="status" className="text-sm text-emerald-800">
            Subscription activated successfully! Your plan is now{' '}
            {confirm.data.subscription.current_plan.name}. Taking you to your subscription…
          </p>
        ) : (
          <p role="status" className="flex items-center gap-3 text-sm text-slate-700">
            <Spinner /> Confirming your payment…
          </p>
        )}
      </Panel>
    </div>
  );
}
