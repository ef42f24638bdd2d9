import { Link, createFileRoute } from '@tanstack/react-router';
import { newsletterApi } from '../../api/newsletter';
import { TokenActionPage } from '../../components/ui/token-action-page';
import { tokenSearch } from '../../lib/text-search';

export const Route = createFileRoute('/newsletter/unsubscribe')({
  ...tokenSearch,
  component: UnsubscribePage,
});

/** One click from the mail unsubscribes; no sign-in needed. */
function UnsubscribePage() {
  const { token } = Route.useSearch();
  return (
    <TokenActionPage
      title="Unsubscribe"
      token={token}
      queryKey="newsletter-unsubscribe"
      action={newsletterApi.unsubscribe}
      pendingLabel="Unsubscribing…"
      fallbackError="This unsubscribe link is invalid."
    >
      <Link to="/" className="font-semibold text-indigo-700 hover:text-indigo-900">
        Back to the home page
      </Link>
    </TokenActionPage>
  );
}
