import { useQuery } from '@tanstack/react-query';
import { tokensQueryOptions } from '../../api/tokens';
import { ErrorState, LoadingState } from '../ui/query-state';
import { TokenList, activeTokenCount } from './token-list';

/** spec 01 §2 "Dashboard" and §9: the 5 most recent tokens and the Active Tokens count. */
export const RECENT_TOKENS = 5;

export function RecentTokens() {
  const tokens = useQuery(tokensQueryOptions());
  if (tokens.isPending) return <LoadingState label="Loading your tokens…" />;
  if (tokens.isError)
    return (
      <ErrorState
        error={tokens.error}
        fallback="Failed to fetch tokens"
        onRetry={() => void tokens.refetch()}
      />
    );
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">
        Connected sites:{' '}
        <span className="font-semibold text-slate-900" data-testid="active-token-count">
          {activeTokenCount(tokens.data.tokens)}
        </span>
      </p>
      <TokenList tokens={tokens.data.tokens.slice(0, RECENT_TOKENS)} allowRevoke={false} />
    </div>
  );
}
