import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionSummary } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { sessionsQueryOptions, userKeys, usersApi } from '../../api/users';
import { toast } from '../../lib/toast';
import { Button } from '../ui/button';
import { QueryState } from '../ui/query-state';

/** A readable device name from a User-Agent string: browser and platform, nothing finer. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Chrome\//.test(userAgent)
      ? 'Chrome'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : /curl|node|undici/i.test(userAgent)
            ? 'API client'
            : 'Browser';
  const platform = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Mac OS X/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return platform ? `${browser} on ${platform}` : browser;
}

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : 'never';

/** Active sessions, with sign-out for each other device. */
export function SessionsList() {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQueryOptions());
  const revoke = useMutation({
    mutationFn: async (ids: string[]) => {
      for (const id of ids) await usersApi.revokeSession(id);
      return ids.length;
    },
    onSuccess: (count) => toast.success(count === 1 ? 'Session signed out' : `${count} sessions signed out`),
    onError: (error) => toast.error(errorMessage(error, 'Failed to sign out the session')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.sessions() }),
  });

  return (
    <QueryState query={sessions} loadingLabel="Loading sessions…" errorFallback="Failed to load sessions">
      {({ sessions: list }) => {
        const others = list.filter((item) => !item.current);
        return (
          <div className="space-y-4">
            <ul className="divide-y divide-slate-200">
              {list.map((item: SessionSummary) => (
                <li
                  key={item.id}
                  className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">
                      {describeDevice(item.user_agent)}
                      {item.current ? (
                        <span className="ml-2 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                          This device
                        </span>
                      ) : null}
                    </p>
                    <p className="text-sm text-slate-700">
                      {item.ip_address ?? 'Unknown address'} · signed in {when(item.created_at)} · last active{' '}
                      {when(item.last_used_at)}
                      {item.remember ? ' · remembered' : ''}
                    </p>
                  </div>
                  {!item.current ? (
                    <Button
                      variant="secondary"
                      className="shrink-0"
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate([item.id])}
                      aria-label={`Sign out ${describeDevice(item.user_agent)} signed in ${when(item.created_at)}`}
                    >
                      Sign out
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
            {others.length > 1 ? (
              <Button
                variant="secondary"
                busy={revoke.isPending}
                onClick={() => revoke.mutate(others.map((item) => item.id))}
              >
                Sign out all other sessions
              </Button>
            ) : null}
          </div>
        );
      }}
    </QueryState>
  );
}
