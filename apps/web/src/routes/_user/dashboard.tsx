import { useQuery } from '@tanstack/react-query';
import { Link, createFileRoute } from '@tanstack/react-router';
import { profileQueryOptions, sessionsQueryOptions } from '../../api/users';
import { ErrorState, QueryState } from '../../components/ui/query-state';
import { buttonClass } from '../../components/ui/button';
import { Card, StatusBadge } from '../../components/user/status-badge';
import {
  OVERALL_LABELS,
  VERIFICATION_FACTS,
  formatDate,
  overallVerification,
} from '../../components/user/verification-status';
import { EmailConfirmationBanner } from '../../components/user/email-confirmation-banner';
import { RecentTokens } from '../../components/user/recent-tokens';
import { AddToWallet } from '../../components/user/add-to-wallet';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/_user/dashboard')({ component: DashboardPage });

function StatCard({ label, value, detail }: { label: string; value: React.ReactNode; detail?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd className="mt-2 text-2xl font-bold text-slate-900">{value}</dd>
      {detail ? <dd className="mt-1 text-sm text-slate-700">{detail}</dd> : null}
    </div>
  );
}

function DashboardPage() {
  useDocumentTitle('Dashboard');
  const profile = useQuery(profileQueryOptions());
  const sessions = useQuery(sessionsQueryOptions());

  return (
    <QueryState
      query={profile}
      loadingLabel="Loading your dashboard…"
      errorFallback="Failed to fetch profile"
    >
      {(user) => {
        const overall = overallVerification(user);
        const verifiedCount = VERIFICATION_FACTS.filter((fact) => user[fact.flag]).length;
        const contactVerified = [user.email_verified_at, user.phone_verified_at].filter(Boolean).length;
        return (
          <div className="space-y-6">
            <div>
              <h1 className="text-2xl font-bold tracking-tight text-slate-900">
                Welcome back, {user.full_name.split(' ')[0]}
              </h1>
              <p className="mt-1 text-slate-700">Your verification status and account at a glance.</p>
            </div>

            {!user.email_verified_at ? <EmailConfirmationBanner email={user.email} /> : null}

            {overall !== 'fully_verified' ? (
              <div className="flex flex-col gap-3 rounded-xl border border-indigo-200 bg-indigo-50 p-5 sm:flex-row sm:items-center sm:justify-between">
                <div>
                  <p className="font-semibold text-indigo-900">Complete your verification</p>
                  <p className="text-sm text-indigo-900">
                    Verify your age, location and identity once, then share only a yes or a no with partner
                    sites.
                  </p>
                </div>
                <Link to="/verification" className={buttonClass('primary', 'shrink-0')}>
                  Verify now
                </Link>
              </div>
            ) : null}

            <dl className="grid gap-4 sm:grid-cols-3">
              <StatCard
                label="Verified facts"
                value={`${verifiedCount} of 3`}
                detail={OVERALL_LABELS[overall]}
              />
              <StatCard
                label="Contact details verified"
                value={`${contactVerified} of 2`}
                detail={user.email_verified_at ? 'Email verified' : 'Email not yet verified'}
              />
              <StatCard
                label="Active sessions"
                value={
                  sessions.isPending ? (
                    <span className="text-base font-normal">Loading…</span>
                  ) : sessions.isError ? (
                    <span className="text-base font-normal text-red-800">Unavailable</span>
                  ) : (
                    sessions.data.total_count
                  )
                }
                detail="Devices signed in to your account"
              />
            </dl>

            <Card
              title="Verification status"
              actions={
                <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-800">
                  {OVERALL_LABELS[overall]}
                </span>
              }
            >
              <ul className="divide-y divide-slate-200">
                {VERIFICATION_FACTS.map((fact) => (
                  <li key={fact.key} className="flex flex-wrap items-center justify-between gap-2 py-3">
                    <div>
                      <p className="font-medium text-slate-900">{fact.label}</p>
                      <p className="text-sm text-slate-700">
                        {user[fact.flag] ? `Verified on ${formatDate(user[fact.at])}` : 'Not verified yet'}
                      </p>
                    </div>
                    <StatusBadge verified={user[fact.flag]} />
                  </li>
                ))}
              </ul>
            </Card>

            {user.age_verified ? <AddToWallet /> : null}

            <Card
              title="Connected sites"
              actions={
                <Link to="/tokens" className="text-sm font-semibold text-indigo-700 hover:text-indigo-900">
                  View all connected sites
                </Link>
              }
            >
              <RecentTokens />
            </Card>
            {sessions.isError ? (
              <ErrorState
                error={sessions.error}
                fallback="Failed to load sessions"
                onRetry={() => void sessions.refetch()}
              />
            ) : null}
          </div>
        );
      }}
    </QueryState>
  );
}
