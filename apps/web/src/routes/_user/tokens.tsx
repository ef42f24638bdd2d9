import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { connectedPartnersQueryOptions, tokensQueryOptions } from '../../api/tokens';
import { QueryState } from '../../components/ui/query-state';
import { ConnectedPartners } from '../../components/user/connected-partners';
import { Card } from '../../components/user/status-badge';
import { TokenList, activeTokenCount } from '../../components/user/token-list';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * /tokens: the access partner sites hold, with revoke (spec 01 §2 "Tokens", §4, §5). People read "Connected sites":
 * a token is the mechanism, the site they shared a fact with is what they recognise. Below the sites, the companies
 * behind them, each of which can be disconnected at once.
 */
export const Route = createFileRoute('/_user/tokens')({ component: TokensPage });

function TokensPage() {
  useDocumentTitle('Connected sites');
  const tokens = useQuery(tokensQueryOptions());
  const partners = useQuery(connectedPartnersQueryOptions());
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Connected sites</h1>
      <QueryState query={tokens} loadingLabel="Loading your tokens…" errorFallback="Failed to fetch tokens">
        {(data) => (
          <Card
            title="Sites you shared verified facts with"
            actions={
              <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-800">
                {activeTokenCount(data.tokens)} active
              </span>
            }
          >
            <TokenList tokens={data.tokens} />
          </Card>
        )}
      </QueryState>
      <Card title="Companies that can see your verified facts">
        <QueryState
          query={partners}
          loadingLabel="Loading connected companies…"
          errorFallback="Failed to fetch connected companies"
        >
          {(data) => <ConnectedPartners partners={data.partners} />}
        </QueryState>
      </Card>
    </div>
  );
}
