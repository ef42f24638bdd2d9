import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiKeyCreated, ApiKeyEnvironment } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { apiKeysQueryOptions, partnerApi, partnerKeys } from '../../api/partner';
import { Button } from '../../components/ui/button';
import { QueryState } from '../../components/ui/query-state';
import { toast } from '../../lib/toast';
import { Badge, SecretOnce, formatDate } from './ui';

/** The spec's warning before a regeneration (spec 01 §5): the current key stops working. */
export const REGENERATE_WARNING =
  'Regenerate this API key? The current key will be invalidated immediately and every server using it will stop working until you update it.';

/**
 * API keys (DESIGN.md §3): sandbox (atk_test_) and live (atk_live_) keys, shown once at creation or regeneration,
 * listed by prefix with their last use.
 */
export function ApiKeysPanel() {
  const queryClient = useQueryClient();
  const keys = useQuery(apiKeysQueryOptions());
  const [shown, setShown] = useState<ApiKeyCreated | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: partnerKeys.apiKeys() });
  const onError = (fallback: string) => (error: unknown) => toast.error(errorMessage(error, fallback));

  const create = useMutation({
    mutationFn: (environment: ApiKeyEnvironment) => partnerApi.createApiKey(environment),
    onSuccess: async (created) => {
      setShown(created);
      await refresh();
    },
    onError: onError('Failed to create API key'),
  });
  const regenerate = useMutation({
    mutationFn: partnerApi.regenerateApiKey,
    onSuccess: async (created) => {
      setShown(created);
      await refresh();
    },
    onError: onError('Failed to regenerate API key'),
  });
  const remove = useMutation({
    mutationFn: partnerApi.deleteApiKey,
    onSuccess: async () => {
      toast.success('API key deleted');
      await refresh();
    },
    onError: onError('Failed to delete API key'),
  });

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Your servers send a key in the <code className="font-mono">X-API-Key</code> header to call{' '}
        <code className="font-mono">/partners/stats</code>,{' '}
        <code className="font-mono">/partners/audit-logs</code> and{' '}
        <code className="font-mono">/partners/validate-token</code>. A sandbox key sees only your sandbox
        sites: their tokens, statistics and audit entries.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          busy={create.isPending && create.variables === 'sandbox'}
          onClick={() => create.mutate('sandbox')}
        >
          New sandbox key
        </Button>
        <Button
          variant="secondary"
          busy={create.isPending && create.variables === 'live'}
          onClick={() => create.mutate('live')}
        >
          New live key
        </Button>
      </div>
      {shown ? (
        <div className="rounded-lg border border-amber-300 bg-amber-50 p-4">
          <SecretOnce label={`Your new ${shown.environment} API key`} value={shown.api_key} />
          <Button variant="ghost" className="mt-2" onClick={() => setShown(null)}>
            I have stored it
          </Button>
        </div>
      ) : null}
      <QueryState query={keys} loadingLabel="Loading API keys…" errorFallback="Failed to load API keys">
        {(data) =>
          data.api_keys.length === 0 ? (
            <p className="text-sm text-slate-700">No API keys yet.</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {data.api_keys.map((key) => (
                <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div>
                    <p className="font-mono text-sm text-slate-900">{key.prefix}…</p>
                    <p className="text-xs text-slate-600">
                      <Badge value={key.environment} /> Created {formatDate(key.created_at)} · Last used{' '}
                      {key.last_used_at ? formatDate(key.last_used_at) : 'never'}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Button
                      variant="secondary"
                      busy={regenerate.isPending && regenerate.variables === key.id}
                      onClick={() => {
                        if (window.confirm(REGENERATE_WARNING)) regenerate.mutate(key.id);
                      }}
                    >
                      Regenerate
                    </Button>
                    <Button
                      variant="danger"
                      busy={remove.isPending && remove.variables === key.id}
                      onClick={() => {
                        if (window.confirm('Delete this API key? Servers using it will stop working.'))
                          remove.mutate(key.id);
                      }}
                    >
                      Delete
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </div>
  );
}
