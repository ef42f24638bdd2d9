import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Deps } from '../core/deps';
import type { AuditService } from '../modules/shared/audit/service';
import type { GrantService, RevocationReason } from '../modules/users/grants/service';

const originOf = (ctx: KoaContextWithOIDC) => ({
  ip: ctx.ip || null,
  userAgent: ctx.get('User-Agent') || null,
});
const partnerOf = (client: unknown) => (client as { partner_id?: string } | undefined)?.partner_id ?? null;

/** Work the provider's event handlers start that must be stored before the request is answered (index.ts). */
export function waitBeforeResponse(ctx: KoaContextWithOIDC, work: Promise<unknown>): void {
  const state = ctx.state as { beforeResponse?: Promise<unknown>[] };
  (state.beforeResponse ??= []).push(work);
}

/**
 * Audit and outbox for what happens inside the provider (DESIGN.md §3, §6): tokens issued at the token endpoint,
 * grants the provider revokes itself (refresh token revoked at /revoke, a used code or a rotated refresh token
 * presented again), and server errors.
 */
export function attachProviderEvents(
  provider: Provider,
  { deps, audit, grants }: { deps: Pick<Deps, 'logger'>; audit: AuditService; grants: GrantService },
): void {
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const { AccessToken: accessToken, Client: client } = ctx.oidc.entities;
    if (!accessToken || !client) return;
    const grantId = accessToken.grantId;
    // Committed before the answer (issue 15 item 9): index.ts waits for `ctx.state.beforeResponse` after the
    // provider's middleware, so an issued token always has its audit row (one group commit, shared by concurrent
    // requests).
    const recorded = (async () => {
      if (grantId) await grants.touch(grantId);
      await audit.recordSafely({
        event: 'oauth.token_issued',
        userId: accessToken.accountId ?? null,
        partnerId: partnerOf(client),
        ...originOf(ctx),
        details: {
          grant_id: grantId,
          client_id: client.clientId,
          // The grant's site is the client's site (adapter.ts adds site_id to each client's metadata).
          site_id: (client as { site_id?: string }).site_id ?? null,
          grant_type: ctx.oidc.params?.grant_type,
          scope: accessToken.scope,
          refresh_token: !!ctx.oidc.entities.RefreshToken,
        },
      });
    })().catch((error: unknown) => deps.logger.error({ err: error }, 'recording token issuance failed'));
    waitBeforeResponse(ctx, recorded);
  });

  provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => {
    const reason: RevocationReason =
      ctx.oidc.route === 'revocation' ? 'refresh_token_revoked' : 'token_reuse_detected';
    waitBeforeResponse(
      ctx,
      grants
        .revoke(grantId, reason, { partnerId: partnerOf(ctx.oidc.client), origin: originOf(ctx) })
        .catch((error: unknown) =>
          deps.logger.error({ err: error, grant_id: grantId }, 'recording grant revocation failed'),
        ),
    );
  });

  provider.on('server_error', (ctx: KoaContextWithOIDC, error: Error) => {
    deps.logger.error(
      { err: error, path: ctx.path, request_id: ctx.state?.requestId },
      'OIDC provider error',
    );
  });
}
