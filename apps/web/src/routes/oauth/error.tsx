import { Link, createFileRoute } from '@tanstack/react-router';
import { AuthCard } from '../../components/auth/auth-card';
import { textSearch } from '../../lib/text-search';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * Where the provider sends a browser whose authorization request cannot go back to the site (RFC 6749 §4.1.2.1):
 * an unknown, deactivated or suspended client, or a redirect URI the site did not register (issue 10 item 8).
 */
export const Route = createFileRoute('/oauth/error')({
  ...textSearch('error', 'error_description'),
  component: OAuthErrorPage,
});

const EXPLANATIONS: Record<string, string> = {
  invalid_client:
    'The site that sent you here is not registered with Attestly, or it is not accepting sign-ins at the moment.',
  invalid_redirect_uri: 'The site asked to send you back to an address it has not registered with Attestly.',
  invalid_request: 'The site sent an incomplete or malformed sign-in request.',
};

function OAuthErrorPage() {
  useDocumentTitle('This sign-in link does not work');
  const { error, error_description: description } = Route.useSearch();
  const explanation =
    EXPLANATIONS[error] ??
    (/redirect_uri/.test(description)
      ? EXPLANATIONS.invalid_redirect_uri
      : 'The sign-in request cannot continue.');
  return (
    <AuthCard title="This sign-in link does not work" subtitle={explanation}>
      <div className="space-y-4 text-sm text-slate-800">
        <p>
          Nothing was shared with the site. Go back to the site and try again; if it keeps happening, tell the
          site’s support team.
        </p>
        {description ? (
          <p className="rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-xs text-slate-700">
            {error}: {description}
          </p>
        ) : null}
        <Link to="/" className="font-semibold text-indigo-700 hover:text-indigo-900">
          Go to the Attestly home page
        </Link>
      </div>
    </AuthCard>
  );
}
