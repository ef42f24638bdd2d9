import { Link, createFileRoute, stripSearchParams } from '@tanstack/react-router';
import * as v from 'valibot';
import { newsletterApi } from '../../api/newsletter';
import { TokenActionPage } from '../../components/ui/token-action-page';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/newsletter/unsubscribe')({
  validateSearch: v.object({ token: v.optional(v.fallback(v.string(), ''), '') }),
  // Defaults stay out of the address (issue 25 item 12: clean URLs, no empty `?return_to=`).
  search: { middlewares: [stripSearchParams({ token: '' })] },
  component: UnsubscribePage,
});

/** One click from the mail unsubscribes; no sign-in needed. */
function UnsubscribePage() {
  useDocumentTitle('Unsubscribe');
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
