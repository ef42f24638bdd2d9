import { Op } from 'sequelize';
import type { Deps } from '../../../core/deps';
import { GRANTABLE_MODELS } from '../../../oidc/payload-rows';
import type { AuditService } from '../audit/service';
import type { GrantService, RevocationReason } from '../../users/grants/service';
import type { RequestOrigin } from './service';

/** Why a user's sign-ins were ended; recorded in the audit entry. */
export type SignOutReason =
  | 'signed_out'
  | 'password_changed'
  | 'password_reset'
  | 'account_deleted'
  | 'account_locked'
  | 'admin_signed_out';

export interface EndSessionsOptions {
  reason: SignOutReason;
  /**
   * What partners keep: `false` (default) leaves grants and their tokens alone; `'tokens'` ends every access and
   * refresh token and unused code of the account but keeps the consent ("sign out everywhere"); `true` revokes
   * every grant too (deletion, a lock), which partners hear about as token.revoked.
   */
  revokeGrants?: boolean | 'tokens';
  /** The Attestly session making the request, which stays signed in (a password change). */
  keepSessionId?: string;
  /** False when only the provider's browser sessions end (sign-out of one Attestly session). */
  endAttestlySessions?: boolean;
  origin?: RequestOrigin;
  adminUserId?: string | null;
}

export interface EndedSessions {
  sessions: number;
  providerSessions: number;
  grants: number;
  tokens: number;
}

const TOKEN_MODELS = [...GRANTABLE_MODELS];

/**
 * Ends a user's sign-in everywhere (issue 15 items 1–2; INTERFACES.md `users.endAllSessions`): Attestly's bearer
 * sessions, the OpenID Connect provider's browser sessions of the account (rows in oidc_payloads, so every replica
 * sees it on the next request: the provider finds no session and asks to sign in, `prompt=none` answers
 * login_required), and when asked the partners' tokens and grants. Nothing is cached per process, so it takes
 * effect at once everywhere.
 */
export function createSessionEnder(
  deps: Pick<Deps, 'db' | 'clock'>,
  { grants, audit }: { grants: GrantService; audit: AuditService },
) {
  const { db } = deps;

  /**
   * The provider's sessions of an account. Rows written before `account_id` existed carry the account only in the
   * payload, so those are matched by it (an account id is a UUID: no LIKE wildcards).
   */
  async function endProviderSessions(userId: string): Promise<number> {
    return db.write(
      `DELETE FROM oidc_payloads WHERE model = 'Session'
         AND (account_id = :userId OR (account_id IS NULL AND payload LIKE :pattern))`,
      { userId, pattern: `%"accountId":"${userId}"%` },
    );
  }

  async function endTokens(userId: string): Promise<number> {
    return db.write(
      `DELETE FROM oidc_payloads WHERE account_id = :userId AND model IN (${TOKEN_MODELS.map((model) => `'${model}'`).join(', ')})`,
      { userId },
    );
  }

  async function endAllSessions(userId: string, options: EndSessionsOptions): Promise<EndedSessions> {
    const ended: EndedSessions = { sessions: 0, providerSessions: 0, grants: 0, tokens: 0 };
    if (options.revokeGrants === true) {
      const live = await db.models.OAuthAuthorization.findAll({
        where: { user_id: userId, revoked_at: null },
        attributes: ['id'],
      });
      const reason: RevocationReason =
        options.reason === 'account_deleted' ? 'account_deleted' : 'account_locked';
      for (const grant of live) {
        if (
          await grants.revoke(grant.id, reason, {
            userId,
            adminUserId: options.adminUserId ?? null,
            origin: options.origin,
          })
        )
          ended.grants += 1;
      }
      // Grants the product never recorded (none should exist) go too, with every token of the account.
      await db.write(`DELETE FROM oidc_payloads WHERE account_id = :userId AND model = 'Grant'`, { userId });
    }
    if (options.revokeGrants) ended.tokens = await endTokens(userId);
    if (options.endAttestlySessions !== false) {
      ended.sessions = await db.models.Session.destroy({
        where: {
          kind: 'user',
          subject_id: userId,
          ...(options.keepSessionId ? { id: { [Op.ne]: options.keepSessionId } } : {}),
        },
      });
    }
    ended.providerSessions = await endProviderSessions(userId);
    await audit.recordSafely({
      event: 'user.sessions_ended',
      userId,
      adminUserId: options.adminUserId ?? null,
      ip: options.origin?.ip ?? null,
      userAgent: options.origin?.userAgent ?? null,
      details: {
        reason: options.reason,
        sessions: ended.sessions,
        provider_sessions: ended.providerSessions,
        grants_revoked: ended.grants,
        tokens_revoked: ended.tokens,
      },
    });
    return ended;
  }

  return { endAllSessions, endProviderSessions };
}
export type SessionEnder = ReturnType<typeof createSessionEnder>;
