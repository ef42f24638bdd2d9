import { randomBytes } from 'node:crypto';
import { Op, UniqueConstraintError, col, fn, where as sqlWhere } from 'sequelize';
import type * as v from 'valibot';
import type {
  adminEditUserBody,
  adminFlagUserBody,
  adminLockUserBody,
  adminUnflagUserBody,
  adminUserListQuery,
} from '@attestly/contracts';
import {
  PARTNER_INVITATION_DAYS,
  UNFLAGGED_BY_ADMIN,
  type AdminCreatedUser,
  type AdminUserAuthorization,
  type adminCreateUserBody,
} from '@attestly/contracts';
import { hashPassword } from '../../../lib/passwords';
import { mailOutboxFor } from '../../shared/notifications/outbox';
import { createOneTimeTokens } from '../../users/accounts/one-time-tokens';
import type { Deps } from '../../../core/deps';
import { AppError, notFound } from '../../../errors';
import type { AuditService } from '../../shared/audit/service';
import type { GrantService } from '../../users/grants/service';
import type { SessionService } from '../../shared/sessions/service';
import { countsBy, type AdminActor } from '../common';
import { Where, page, probeRows, type PageQuery } from '../../shared/paging/page';
import { anyContains, shortTerm } from '../../shared/paging/search';
import { eraseAccount } from '../../users/accounts/erasure';
import { USER_COLUMNS, asScopes, presentAdminUser, presentAdminUserDetail, type UserRow } from './presenters';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** "Until unlocked": a lock without a duration. */
const FOREVER = new Date('9999-12-31T00:00:00Z');
const FROM = 'users u LEFT JOIN user_flags f ON f.user_id = u.id AND f.resolved_at IS NULL';
/** Flagged users only: driven by the (few) open flags rather than by every user. */
const FLAGGED_FROM = 'user_flags f JOIN users u ON u.id = f.user_id';
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
  const { db, clock, config } = deps;
  const { audit, sessions, grants } = services;
  const { User, UserFlag, OAuthAuthorization, Verification } = db.models;
  const oneTimeTokens = createOneTimeTokens(deps);
  const outbox = mailOutboxFor(deps);

  function verifiedClause(now: Date) {
    return {
      // Every term guards its NULLs, so that NOT (…) is true for a user with nothing proven.
      sql: `((u.proven_min_age IS NOT NULL AND u.age_verified_until IS NOT NULL AND u.age_verified_until > :now)
        OR (u.location_verified_until IS NOT NULL AND u.location_verified_until > :now)
        OR (u.identity_verified_until IS NOT NULL AND u.identity_verified_until > :now))`,
      params: { now },
    };
  }

  async function list(query: v.InferOutput<typeof adminUserListQuery>) {
    const now = clock.now();
    const where = new Where().add('u.deleted_at IS NULL');
    let scan = false;
    let materialize = false;
    let probe: PageQuery['probe'];
    if (query.search) {
      if (UUID.test(query.search)) where.add('u.id = :id', { id: query.search.toLowerCase() });
      else {
        // PostgreSQL answers these from the pg_trgm indexes on LOWER(email) and LOWER(full_name) (migration
        // 20261126120100); elsewhere one pass over the matches gives the page's keys and the total together.
        const match = anyContains(db, ['u.email', 'u.full_name'], query.search);
        where.add(match.sql, match.params);
        scan = true;
        // The newest users first (`page`'s probe), then one pass. A term too short for a trigram reads every user
        // whatever the plan (PostgreSQL, see `page`). Flagged users only are few, and read in one pass.
        materialize = shortTerm(query.search);
        if (!query.flagged_only) probe = { rows: probeRows(query.search), search: where.parts.length - 1 };
      }
    }
    if (query.country) where.add('u.country = :country', { country: query.country });
    if (query.flagged_only) where.add('f.resolved_at IS NULL');
    const verified = verifiedClause(now);
    if (query.verified_only || query.verification_status === 'verified')
      where.add(verified.sql, verified.params);
    if (query.verification_status === 'pending') {
      // The pending set is small and indexed by status: looked up once rather than once per user.
      where.add("u.id IN (SELECT pv.user_id FROM verifications pv WHERE pv.status = 'pending')");
    }
    if (query.verification_status === 'unverified') {
      where.add(`NOT ${verified.sql}`, verified.params);
      where.add("u.id NOT IN (SELECT pv.user_id FROM verifications pv WHERE pv.status = 'pending')");
    }
    const result = await page<UserRow>(
      db,
      {
        select: USER_COLUMNS,
        from: query.flagged_only ? FLAGGED_FROM : FROM,
        where,
        order: 'u.created_at DESC, u.id DESC',
        countFrom: query.flagged_only ? FLAGGED_FROM : 'users u',
        // Deferred join over users_live_created (created_at, id) or users_country_created (country, created_at, id).
        key: 'u.id',
        scan,
        materialize,
        probe,
      },
      query,
    );
    const ids = result.rows.map((row) => row.id);
    const [verifications, authorizations] = await Promise.all([
      countsBy(db, 'verifications', 'user_id', ids),
      countsBy(db, 'oauth_authorizations', 'user_id', ids, 'AND revoked_at IS NULL AND expires_at > :now', {
        now,
      }),
    ]);
    return {
      users: result.rows.map((row) =>
        presentAdminUser(
          row,
          { verifications: verifications.get(row.id) ?? 0, authorizations: authorizations.get(row.id) ?? 0 },
          now,
        ),
      ),
      total_count: result.total,
    };
  }

  async function findRow(id: string): Promise<UserRow> {
    const [row] = await db.read<UserRow>(
      `SELECT ${USER_COLUMNS} FROM ${FROM} WHERE u.id = :id AND u.deleted_at IS NULL`,
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
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
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
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
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
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
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
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
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
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
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
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
      details: { reason, withdrawn_cases: withdrawn },
    });
  }

  /**
   * "Add User" (spec 02 §2; issue 25 item 6). The account starts with a random password nobody is told, unless
   * the administrator chose to be shown it once; with an invitation the person chooses one through a password-reset
   * link of PARTNER_INVITATION_DAYS days, which also proves the address (users/accounts/passwords.ts resetPassword).
   */
  async function create(
    body: v.InferOutput<typeof adminCreateUserBody>,
    who: AdminActor,
  ): Promise<AdminCreatedUser> {
    const taken = await User.findOne({
      where: sqlWhere(fn('LOWER', col('email')), body.email.toLowerCase()),
      attributes: ['id'],
    });
    const conflict = () =>
      new AppError(409, 'users.email_taken', 'A user with this email already exists', [
        { path: 'email', message: 'A user with this email already exists' },
      ]);
    if (taken) throw conflict();
    const firstPassword = randomBytes(12).toString('base64url');
    const now = clock.now();
    let user;
    try {
      user = await User.create({
        email: body.email,
        password_hash: await hashPassword(firstPassword, config.passwordCost),
        full_name: body.full_name,
        created_at: now,
        updated_at: now,
      });
    } catch (error) {
      // A racing sign-up or creation took the address first.
      if (error instanceof UniqueConstraintError) throw conflict();
      throw error;
    }
    await audit.recordSafely({
      event: 'user_created',
      userId: user.id,
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
      details: { sign_in: body.sign_in },
    });
    if (body.sign_in === 'show_password')
      return { ...(await detail(user.id)), temporary_password: firstPassword };
    const token = await oneTimeTokens.issue('password_reset', user.id, {
      ttlMs: PARTNER_INVITATION_DAYS * 86_400_000,
      target: user.email,
    });
    await outbox.enqueue({
      to: user.email,
      subject: 'You are invited to Attestly',
      text:
        `Hello ${body.full_name},\n\nAn Attestly account was created for you with this address. To sign in, choose ` +
        `your password by opening this link within ${PARTNER_INVITATION_DAYS} days:\n` +
        `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}\n\n` +
        `Then sign in at ${config.publicUrl}/login with ${user.email}. If you did not expect this, ignore this ` +
        `message: nothing happens unless the link is opened.\n`,
    });
    return { ...(await detail(user.id)), invitation_sent_to: user.email };
  }

  return { list, detail, create, flag, unflag, edit, lock, unlock, remove };
}
export type AdminUserService = ReturnType<typeof createAdminUserService>;
