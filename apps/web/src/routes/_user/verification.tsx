import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { profileQueryOptions } from '../../api/users';
import { QueryState } from '../../components/ui/query-state';
import { Card, StatusBadge } from '../../components/user/status-badge';
import { VERIFICATION_FACTS, formatDate } from '../../components/user/verification-status';
import { textSearch } from '../../lib/text-search';
import { useDocumentTitle } from '../../lib/use-document-title';
import { VerificationMethods } from '../../features/verification/verification-page';
import { ReturnToConsent } from '../../components/oauth/return-to-consent';

/** /verification: the user's verified facts, the method picker with one form per method, and recent attempts. */
export const Route = createFileRoute('/_user/verification')({
  // ?return_to=/oauth/consent?uid=… from the consent screen's "Verify now" (components/oauth/return-to-consent.tsx).
  // ?method=credit_card (or document) opens that method: a partner's verify_url (POST /partners/verify-age).
  ...textSearch('return_to', 'method'),
  component: VerificationPage,
});

function VerificationPage() {
  useDocumentTitle('Verification');
  const profile = useQuery(profileQueryOptions());
  const { return_to: returnTo, method } = Route.useSearch();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Verification</h1>
      <ReturnToConsent returnTo={returnTo} />
      <QueryState query={profile} errorFallback="Failed to fetch profile">
        {(user) => (
          <Card title="Your verified facts">
            <ul className="divide-y divide-slate-200">
              {VERIFICATION_FACTS.map((fact) => (
                <li key={fact.key} className="flex items-center justify-between py-3">
                  <span className="text-sm font-medium text-slate-900">
                    {fact.label}
                    {user[fact.flag] ? ' ' : null}
                    {user[fact.flag] ? (
                      <span className="ml-2 font-normal text-slate-700">
                        since {formatDate(user[fact.at])}
                      </span>
                    ) : null}
                  </span>
                  <StatusBadge verified={user[fact.flag]} />
                </li>
              ))}
            </ul>
          </Card>
        )}
      </QueryState>
      <VerificationMethods initial={method} />
    </div>
  );
}
