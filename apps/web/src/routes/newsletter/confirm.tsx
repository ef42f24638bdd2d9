import { Link, createFileRoute } from '@tanstack/react-router';
import { newsletterApi } from '../../api/newsletter';
import { TokenActionPage } from '../../components/ui/token-action-page';
import { tokenSearch } from '../../lib/text-search';

export const Route = createFileRoute('/newsletter/confirm')({
  ...tokenSearch,
  component: ConfirmPage,
});

function ConfirmPage() {
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
