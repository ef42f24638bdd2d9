import { Link, createFileRoute, stripSearchParams } from '@tanstack/react-router';
import * as v from 'valibot';
import { newsletterApi } from '../../api/newsletter';
import { TokenActionPage } from '../../components/ui/token-action-page';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/newsletter/confirm')({
  validateSearch: v.object({ token: v.optional(v.fallback(v.string(), ''), '') }),
  // Defaults stay out of the address (issue 25 item 12: clean URLs, no empty `?return_to=`).
  search: { middlewares: [stripSearchParams({ token: '' })] },
  component: ConfirmPage,
});

function ConfirmPage() {
  useDocumentTitle('Confirm your subscription');
  const { token } = Route.useSearch();
  return (
    <TokenActionPage
      title="Confirm your subscription"
      token={token}
      queryKey="newsletter-confirm"
      action={newsletterApi.confirm}
      pendingLabel="Confirming your subscription…"
      fallbackError="This confirmation link is invalid or has expired."
    >
      <Link to="/news" className="font-semibold text-indigo-700 hover:text-indigo-900">
        Read the latest articles
      </Link>
    </TokenActionPage>
  );
}
