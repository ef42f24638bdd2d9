import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { profileQueryOptions } from '../../api/users';
import { ProfileForm } from '../../components/user/profile-form';
import { ProfilePhoto } from '../../components/user/profile-photo';
import { QueryState } from '../../components/ui/query-state';
import { Card, StatusBadge } from '../../components/user/status-badge';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/_user/profile')({ component: ProfilePage });

function ProfilePage() {
  useDocumentTitle('Profile settings');
  const profile = useQuery(profileQueryOptions());
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Profile settings</h1>
      <QueryState
        query={profile}
        loadingLabel="Loading your profile…"
        errorFallback="Failed to fetch profile"
      >
        {(user) => (
          <>
            <Card title="Personal information">
              <div className="space-y-6">
                <ProfilePhoto profile={user} />
                <ProfileForm profile={user} />
              </div>
            </Card>
            <Card title="Verification">
              <ul className="divide-y divide-slate-200">
                {(
                  [
                    ['Email', !!user.email_verified_at],
                    ['Phone', !!user.phone_verified_at],
                    ['Age', user.age_verified],
                    ['Location', user.location_verified],
                    ['Identity', user.identity_verified],
                  ] as const
                ).map(([label, verified]) => (
                  <li key={label} className="flex items-center justify-between py-3">
                    <span className="text-sm font-medium text-slate-900">{label}</span>
                    <StatusBadge verified={verified} />
                  </li>
                ))}
              </ul>
            </Card>
          </>
        )}
      </QueryState>
    </div>
  );
}
