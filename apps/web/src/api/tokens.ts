import type { ConnectedPartner, UserToken } from '@attestly/contracts';
import { apiFetch } from './client';
import { getQueryOptions } from './get-query';

export const tokenKeys = {
  all: ['tokens'] as const,
  list: () => [...tokenKeys.all, 'list'] as const,
  partners: () => [...tokenKeys.all, 'partners'] as const,
};

/** spec 01 §7 "User": GET /users/tokens — the grants the user gave partner sites. */
export const tokensQueryOptions = () =>
  getQueryOptions<{ tokens: UserToken[]; total_count: number }>(tokenKeys.list(), '/users/tokens', 'user');

/** spec 01 §7 "User": GET /users/connected-partners — the same grants grouped by the company behind the sites. */
export const connectedPartnersQueryOptions = () =>
  getQueryOptions<{ partners: ConnectedPartner[]; total_count: number }>(
    tokenKeys.partners(),
    '/users/connected-partners',
    'user',
  );

export type TokenStatus = 'Revoked' | 'Expired' | 'Active';

/** spec 01 §4 "Token display status": Revoked if revoked; Expired once past expiry; otherwise Active. */
export function tokenStatus(token: Pick<UserToken, 'revoked' | 'expires_at'>, now = Date.now()): TokenStatus {
  if (token.revoked) return 'Revoked';
  if (new Date(token.expires_at).getTime() <= now) return 'Expired';
  return 'Active';
}

export const tokensApi = {
  revoke: (id: string) =>
    apiFetch<void>(`/users/tokens/${encodeURIComponent(id)}`, { method: 'DELETE', auth: 'user' }),
  disconnectPartner: (id: string) =>
    apiFetch<{ revoked_tokens: number }>(`/users/connected-partners/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      auth: 'user',
    }),
};
