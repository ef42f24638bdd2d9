import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SCOPE_DESCRIPTIONS, type Scope, type UserToken } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { tokenKeys, tokenStatus, tokensApi, type TokenStatus } from '../../api/tokens';
import { toast } from '../../lib/toast';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { formatDate } from './verification-status';

const STATUS_STYLES: Record<TokenStatus, string> = {
  Active: 'bg-green-100 text-green-900',
  Expired: 'bg-slate-100 text-slate-800',
  Revoked: 'bg-red-100 text-red-900',
};

/** The grants a user gave partner sites (spec 01 §2 "Tokens", §4 "Token display status"). */
export function TokenList({ tokens, allowRevoke = true }: { tokens: UserToken[]; allowRevoke?: boolean }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<UserToken | null>(null);
  const revoke = useMutation({
    mutationFn: (id: string) => tokensApi.revoke(id),
    onSuccess: async () => {
      toast.success('Token revoked successfully');
      setConfirming(null);
      await queryClient.invalidateQueries({ queryKey: tokenKeys.all });
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to revoke token')),
  });

  if (tokens.length === 0) {
    return (
      <p className="text-sm text-slate-700">
        You have not connected any site yet. When a site asks to check a fact such as your age and you agree,
        it appears here.
      </p>
    );
  }
  return (
    <>
      <ul className="divide-y divide-slate-200">
        {tokens.map((token) => {
          const status = tokenStatus(token);
          return (
            <li
              key={token.id}
              className="flex flex-wrap items-center justify-between gap-3 py-3"
              data-testid="token-row"
            >
              <div className="min-w-0">
                <p className="font-medium text-slate-900">
                  {token.site_name} <span className="font-normal text-slate-700">· {token.partner_name}</span>
                </p>
                <p className="text-sm text-slate-700">
                  {scopeLabels(token.scopes)}
                  {token.jurisdiction ? ` · ${token.jurisdiction}` : ''}
                </p>
                <p className="text-xs text-slate-700">
                  Granted {formatDate(token.created_at)} · expires {formatDate(token.expires_at)}
                </p>
              </div>
              <div className="flex items-center gap-3">
                <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[status]}`}>
                  {status}
                </span>
                {allowRevoke && status === 'Active' ? (
                  <Button variant="danger" onClick={() => setConfirming(token)}>
                    Revoke
                  </Button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
      <Dialog
        open={confirming !== null}
        onOpenChange={(open) => (open ? undefined : setConfirming(null))}
        title={confirming ? `Revoke ${confirming.site_name}'s access` : 'Revoke token'}
        description="Are you sure you want to revoke this token?"
      >
        {confirming ? <RevokeConsequences token={confirming} /> : null}
        <div className="mt-4 flex justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirming(null)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            busy={revoke.isPending}
            onClick={() => confirming && revoke.mutate(confirming.id)}
          >
            Revoke
          </Button>
        </div>
      </Dialog>
    </>
  );
}

/**
 * What revoking a grant takes from the site (issue 25 item 12): the facts it may no longer read, that its tokens stop
 * at once and that it is told (DESIGN §4: revoking a grant revokes its tokens and notifies the partner by webhook).
 */
function RevokeConsequences({ token }: { token: UserToken }) {
  return (
    <div className="space-y-2 text-sm text-slate-800" data-testid="revoke-consequences">
      <p>
        <strong>{token.site_name}</strong> ({token.partner_name}) will no longer be able to check:
      </p>
      <ul className="list-disc pl-5">
        {token.scopes.map((scope) => (
          <li key={scope}>{SCOPE_DESCRIPTIONS[scope as Scope]?.title ?? scope}</li>
        ))}
      </ul>
      <p>
        Its access stops at once and the site is told. Your verifications stay on your account; the next time
        you use {token.site_name} it has to ask for your consent again.
      </p>
    </div>
  );
}

/** The consent screen's words for what a site may see, instead of the protocol's scope codes. */
export function scopeLabels(scopes: string[]): string {
  return scopes.map((scope) => SCOPE_DESCRIPTIONS[scope as Scope]?.title ?? scope).join(' · ');
}

/** spec 01 §4: the Active Tokens count is tokens neither revoked nor expired. */
export const activeTokenCount = (tokens: UserToken[]) =>
  tokens.filter((token) => tokenStatus(token) === 'Active').length;
