import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ConnectedPartner } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { tokenKeys, tokensApi } from '../../api/tokens';
import { toast } from '../../lib/toast';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { scopeLabels } from './token-list';
import { formatDate } from './verification-status';

const tokenCount = (n: number) => `${n} active token${n === 1 ? '' : 's'}`;

/**
 * The companies behind the connected sites (GET /users/connected-partners): what each can currently learn, across
 * all its sites, and a way to cut it off at once (DELETE /users/connected-partners/{id} revokes every active token
 * of all its sites). A company that runs several sites would otherwise need one revoke per site.
 */
export function ConnectedPartners({ partners }: { partners: ConnectedPartner[] }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<ConnectedPartner | null>(null);
  const disconnect = useMutation({
    mutationFn: (partner: ConnectedPartner) => tokensApi.disconnectPartner(partner.id),
    onSuccess: async ({ revoked_tokens }, partner) => {
      toast.success(`Disconnected ${partner.partner_name}: ${revoked_tokens} token(s) revoked`);
      setConfirming(null);
      // Both the partner summary and the token list change.
      await queryClient.invalidateQueries({ queryKey: tokenKeys.all });
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to disconnect the company')),
  });

  if (partners.length === 0) {
    return <p className="text-sm text-slate-700">No company can currently see anything about you.</p>;
  }
  return (
    <>
      <ul className="divide-y divide-slate-200">
        {partners.map((partner) => (
          <li
            key={partner.id}
            className="flex flex-wrap items-center justify-between gap-3 py-3"
            data-testid="partner-row"
          >
            <div className="min-w-0">
              <p className="font-medium text-slate-900">{partner.partner_name}</p>
              <p className="text-sm text-slate-700">
                {partner.sites
                  .map((site) => (site.domain ? `${site.site_name} (${site.domain})` : site.site_name))
                  .join(', ')}
              </p>
              <p className="text-sm text-slate-700">{scopeLabels(partner.scopes)}</p>
              <p className="text-xs text-slate-700">
                {tokenCount(partner.active_tokens)} · connected since {formatDate(partner.first_connected_at)}
                {partner.last_used_at ? ` · last used ${formatDate(partner.last_used_at)}` : ''}
              </p>
            </div>
            <Button
              variant="danger"
              aria-label={`Disconnect ${partner.partner_name}`}
              onClick={() => setConfirming(partner)}
            >
              Disconnect
            </Button>
          </li>
        ))}
      </ul>
      <Dialog
        open={confirming !== null}
        onOpenChange={(open) => (open ? undefined : setConfirming(null))}
        title={confirming ? `Disconnect ${confirming.partner_name}?` : 'Disconnect'}
        description={
          confirming
            ? `This revokes the ${tokenCount(confirming.active_tokens)} of all its sites. They can ask again the next time you sign in there.`
            : undefined
        }
      >
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirming(null)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            busy={disconnect.isPending}
            onClick={() => confirming && disconnect.mutate(confirming)}
          >
            Disconnect
          </Button>
        </div>
      </Dialog>
    </>
  );
}
