import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { SubscriptionSuccessPage } from '../../../features/billing/subscription-success-page';

export const Route = createFileRoute('/partner/_portal/subscription-success')({
  validateSearch: v.object({ session_id: v.optional(v.fallback(v.string(), '')) }),
  component: function SubscriptionSuccess() {
    const { session_id } = Route.useSearch();
    return <SubscriptionSuccessPage sessionId={session_id || undefined} />;
  },
});
