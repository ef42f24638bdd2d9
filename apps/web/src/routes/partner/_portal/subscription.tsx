import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { SubscriptionPage } from '../../../features/billing/subscription-page';

export const Route = createFileRoute('/partner/_portal/subscription')({
  validateSearch: v.object({ session_id: v.optional(v.fallback(v.string(), '')) }),
  component: function Subscription() {
    const { session_id } = Route.useSearch();
    return <SubscriptionPage sessionId={session_id || undefined} />;
  },
});
