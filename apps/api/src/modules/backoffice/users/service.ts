import { Op, UniqueConstraintError, col, fn, where as sqlWhere } from 'sequelize';
import type * as v from 'valibot';
import type {
  adminEditUserBody,
  adminFlagUserBody,
  adminLockUserBody,
  adminUnflagUserBody,
} from '@attestly/contracts';
import { UNFLAGGED_BY_ADMIN, type AdminUserAuthorization } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { AppError, notFound } from '../../../errors';
import type { AuditService } from '../../shared/audit/service';
import type { GrantService } from '../../users/grants/service';
import type { SessionService } from '../../shared/sessions/service';
import { type AdminActor } from '../common';
import { eraseAccount } from '../../users/accounts/erasure';
import { createUserCreation } from './create';
import { USER_FROM, createUserList } from './list';
import { USER_COLUMNS, asScopes, presentAdminUserDetail, type UserRow } from './presenters';

/** "Until unlocked": a lock without a duration. */
const FOREVER = new Date('9999-12-31T00:00:00Z');
const HISTORY_LIMIT = 20;

/** `users.endAllSessions` (INTERFACES.md, sessions/end-sessions.ts); a fallback below covers its absence. */
type EndAllSessions = (
  userId: string,
  options: {
    reason: 'account_locked' | 'account_deleted';
    revokeGrants: boolean | 'tokens';
    adminUserId?: string | null;
    origin?: { ip: string | null; userAgent: string | null };
  },
) => Promise<unknown>;

/**
 * Users as the back office sees them (spec 02 "Users"): lists with filters, details with history and grants,
 * flags, and the actions the reference left out (edit, lock, unlock, delete). Locking and deleting end every
 * sign-in of the user: Attestly sessions, the provider's sessions and (on delete) the grants to partners.
 */
export function createAdminUserService(
  deps: Deps,
  services: {
    audit: AuditService;
    sessions: SessionService;
    grants: GrantService;
    users: { endAllSessions?: EndAllSessions };
  },
) {
  const { db, clock } = deps;
  const { audit, sessions, grants } = services;
  const { User, UserFlag, OAuthAuthorization, Verification } = db.models;
  const list = createUserList(deps);

  async function findRow(id: string): Promise<UserRow> {
    const [row] = await db.read<UserRow>(
      `SELECT ${USER_COLUMNS} FROM ${USER_FROM} WHERE u.id = :id AND u.deleted_at IS NULL`,
      {
        id,
      },
    );
    if (!row) throw notFound('User not found');
    return row;
  }

  async function authorizationsOf(userId: string, now: Date): Promise<AdminUserAuthorization[]> {
    const rows = await OAuthAuthorization.findAll({
      where: { user_id: userId, revoked_at: null, expires_at: { [Op.gt]: now } },
      order: [['created_at', 'DESC']],
    });
    const names = await grants.namesFor(rows);
    return rows.map((row) => ({
      id: row.id,
      partner_id: row.partner_id,
      partner_name: names.partner.get(row.partner_id)?.company_name ?? 'Unknown partner',
      site_id: row.site_id,
      site_name: names.site.get(row.site_id)?.site_name ?? 'Unknown site',
      scopes: asScopes(row.scopes),
      created_at: row.created_at.toISOString(),
      expires_at: row.expires_at.toISOString(),
      last_used_at: row.last_used_at?.toISOString() ?? null,
    }));
  }

  async function detail(id: string) {
    const now = clock.now();
    const row = await findRow(id);
    const [history, total, authorizations] = await Promise.all([
      Verification.findAll({
        where: { user_id: id },
        attributes: ['id', 'verification_type', 'verification_method', 'status', 'created_at'],
        order: [['created_at', 'DESC']],
        limit: HISTORY_LIMIT,
      }),
      Verification.count({ where: { user_id: id } }),
      authorizationsOf(id, now),
    ]);
    return presentAdminUserDetail(row, history, total, authorizations, now);
  }

  async function flag(id: string, body: v.InferOutput<typeof adminFlagUserBody>, who: AdminActor) {
    await findRow(id);
    const now = clock.now();
    // One open flag per user (a partial unique index backs this): flagging again updates it.
    const [updated] = await UserFlag.update(
      {
        reason: body.reason,
        priority: body.priority,
        reviewer_notes: body.reviewer_notes,
        flagged_by: who.adminUserId,
      },
      { where: { user_id: id, resolved_at: null } },
    );
    if (updated === 0) {
      try {
        await UserFlag.create({
          user_id: id,
          reason: body.reason,
          priority: body.priority,
          reviewer_notes: body.reviewer_notes,
          flagged_by: who.adminUserId,
          created_at: now,
          resolved_at: null,
          resolved_by: null,
          resolution_notes: null,
        });
      } catch (error) {
        // A concurrent flag created the open one first: this request's flag becomes an update of it.
        if (!(error instanceof UniqueConstraintError)) throw error;
        await UserFlag.update(
          {
            reason: body.reason,
            priority: body.priority,
            reviewer_notes: body.reviewer_notes,
            flagged_by: who.adminUserId,
          },
          { where: { user_id: id, resolved_at: null } },
        );
      }
    }
    await audit.recordSafely({
      event: 'user_flagged',
      severity: body.priority === 'critical' || body.priority === 'high' ? 'warning' : 'info',
      userId: id,
      ...who,
      details: { reason: body.reason, priority: body.priority, reviewer_notes: body.reviewer_notes },
    });
    return detail(id);
  }

  async function unflag(id: string, body: v.InferOutput<typeof adminUnflagUserBody>, who: AdminActor) {
    await findRow(id);
    const notes = body.resolution_notes ?? UNFLAGGED_BY_ADMIN;
    const [resolved] = await UserFlag.update(
      { resolved_at: clock.now(), resolved_by: who.adminUserId, resolution_notes: notes },
      { where: { user_id: id, resolved_at: null } },
    );
    if (resolved === 0) throw new AppError(409, 'users.not_flagged', 'This user is not flagged');
    await audit.recordSafely({
      event: 'user_unflagged',
      userId: id,
      ...who,
      details: { resolution_notes: notes },
    });
    return detail(id);
  }

  async function edit(id: string, body: v.InferOutput<typeof adminEditUserBody>, who: AdminActor) {
    await findRow(id);
    const changes: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(body)) if (value !== undefined) changes[key] = value;
    if (typeof changes.email === 'string') {
      const taken = await User.findOne({
        where: { [Op.and]: [sqlWhere(fn('LOWER', col('email')), changes.email), { id: { [Op.ne]: id } }] },
        attributes: ['id'],
      });
      if (taken) {
        throw new AppError(409, 'users.email_taken', 'An account with this email already exists', [
          { path: 'email', message: 'An account with this email already exists' },
        ]);
      }
      // A new address has not been confirmed by its owner.
      const current = await User.findByPk(id, { attributes: ['email'] });
      if (current?.email !== changes.email) changes.email_verified_at = null;
    }
    await User.update({ ...changes, updated_at: clock.now() }, { where: { id } });
    await audit.recordSafely({
      event: 'user_updated',
      userId: id,
      ...who,
      details: { fields: Object.keys(body).filter((key) => body[key as keyof typeof body] !== undefined) },
    });
    return detail(id);
  }

  /** Ends every sign-in of the user: Attestly sessions and the provider's sessions; grants too when asked. */
  /**
   * Ends every sign-in of the user: Attestly sessions and the provider's browser sessions; with 'tokens' also the
   * partners' tokens (the consent stays), with true the grants too (users.endAllSessions, INTERFACES.md).
   */
  async function endSignIns(
    userId: string,
    reason: 'account_locked' | 'account_deleted',
    revokeGrants: boolean | 'tokens',
    who: AdminActor,
  ) {
    if (services.users.endAllSessions) {
      await services.users.endAllSessions(userId, {
        reason,
        revokeGrants,
        adminUserId: who.adminUserId,
        origin: { ip: who.ip, userAgent: who.userAgent },
      });
      return;
    }
    await sessions.revokeAll('user', userId);
    await db.models.OidcPayload.destroy({ where: { model: 'Session', account_id: userId } as never });
    if (revokeGrants === true) {
      const active = await OAuthAuthorization.findAll({
        where: { user_id: userId, revoked_at: null },
        attributes: ['id'],
      });
      for (const grant of active) {
        await grants.revoke(grant.id, 'admin_revoked', { adminUserId: who.adminUserId, origin: who });
      }
    }
  }

  async function lock(id: string, body: v.InferOutput<typeof adminLockUserBody>, who: AdminActor) {
    await findRow(id);
    const now = clock.now();
    const until = body.duration_hours ? new Date(now.getTime() + body.duration_hours * 3600_000) : FOREVER;
    await User.update({ locked_until: until, updated_at: now }, { where: { id } });
    // A lock ends the partners' tokens too; the consents stay for when the lock ends.
    await endSignIns(id, 'account_locked', 'tokens', who);
    await audit.recordSafely({
      event: 'user_locked',
      severity: 'warning',
      userId: id,
      ...who,
      details: { reason: body.reason, locked_until: until.toISOString() },
    });
    return detail(id);
  }

  async function unlock(id: string, who: AdminActor) {
    await findRow(id);
    await User.update({ locked_until: null, login_attempts: 0, updated_at: clock.now() }, { where: { id } });
    await audit.recordSafely({
      event: 'user_unlocked',
      userId: id,
      ...who,
    });
    return detail(id);
  }

  /**
   * The same erasure as the user's own account deletion (users/accounts/erasure.ts), after every sign-in and grant
   * has ended; the user's open flags are resolved in the administrator's name.
   */
  async function remove(id: string, reason: string | null, who: AdminActor): Promise<void> {
    await findRow(id);
    await endSignIns(id, 'account_deleted', true, who);
    const now = clock.now();
    const withdrawn = await eraseAccount(deps, id, { now, resolveFlagsBy: who.adminUserId });
    await audit.recordSafely({
      event: 'user_deleted',
      severity: 'warning',
      userId: id,
      ...who,
      details: { reason, withdrawn_cases: withdrawn },
    });
  }

  const create = createUserCreation(deps, audit, detail);

  return { list, detail, create, flag, unflag, edit, lock, unlock, remove };
}
export type AdminUserService = ReturnType<typeof createAdminUserService>;
