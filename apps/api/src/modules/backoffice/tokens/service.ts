import { Op, type WhereOptions } from 'sequelize';
import type * as v from 'valibot';
import type { adminRevokeTokenBody, adminTokenListQuery } from '@attestly/contracts';
import { REVOKED_BY_ADMIN, type AdminOAuthAuthorizationList, type AdminTokenList } from '@attestly/contracts';
import type { OAuthAuthorization } from '../../../db/models/index';
import type { Deps } from '../../../core/deps';
import { AppError, notFound } from '../../../errors';
import type { AuditService } from '../../shared/audit/service';
import type { GrantService } from '../../users/grants/service';
import { type AdminActor } from '../common';
import { Where, page, pageOf } from '../../shared/paging/page';
import { LIKE_ESCAPE, likePattern, lowered } from '../../shared/paging/search';
import { presentAdminAuthorization, presentAdminToken, type TokenRow } from './presenters';

const TOKEN_MODELS = "('AccessToken', 'RefreshToken')";

/**
 * Access tokens and OAuth authorizations (spec 02 "Tokens"). Tokens are the provider's own records (one row per
 * token in oidc_payloads), joined to the grant they belong to for user and partner; revoking one deletes it, so
 * the provider refuses it at once. Revoking an authorization ends the grant with every token it issued
 * (grants service), queues the partner's token.revoked webhook and records "Revoked by admin".
 */
export function createAdminTokenService(
  deps: Deps,
  { audit, grants }: { audit: AuditService; grants: GrantService },
) {
  const { db, clock, mailer, logger } = deps;
  const { OAuthAuthorization, User, Partner } = db.models;

  /** At most this many people or partners may match a name filter; more is too vague to list their tokens by. */
  const NAME_MATCHES = 500;

  /**
   * The ids of the users (e-mail, name) or partners (name, e-mail, contact) whose text contains `term`; null when
   * there is no such filter. More than NAME_MATCHES is refused: the list would be every token anyway.
   */
  async function idsNamed(kind: 'user' | 'partner', term: string | undefined): Promise<string[] | null> {
    if (!term) return null;
    const columns = kind === 'user' ? ['email', 'full_name'] : ['company_name', 'email', 'contact_name'];
    const table = kind === 'user' ? 'users' : 'partners';
    const live = kind === 'user' ? 'deleted_at IS NULL AND ' : '';
    const rows = await db.read<{ id: string }>(
      `SELECT id FROM ${table} WHERE ${live}(${columns
        .map((column) => `${lowered(db, column)} LIKE :pattern ${LIKE_ESCAPE}`)
        .join(' OR ')}) LIMIT ${NAME_MATCHES + 1}`,
      { pattern: likePattern(term) },
    );
    if (rows.length > NAME_MATCHES) {
      throw new AppError(
        422,
        'validation.too_vague',
        `More than ${NAME_MATCHES} ${kind}s match; type more of the name`,
        [{ path: kind, message: `More than ${NAME_MATCHES} ${kind}s match; type more of the name` }],
      );
    }
    return rows.map((row) => String(row.id));
  }

  async function namedFilters(query: v.InferOutput<typeof adminTokenListQuery>) {
    const [users, partners] = await Promise.all([
      idsNamed('user', query.user),
      idsNamed('partner', query.partner),
    ]);
    return { users, partners, none: users?.length === 0 || partners?.length === 0 };
  }

  const inList = (column: string, name: string, ids: string[]) => ({
    sql: `${column} IN (${ids.map((_, index) => `:${name}${index}`).join(', ')})`,
    params: Object.fromEntries(ids.map((id, index) => [`${name}${index}`, id])),
  });

  async function listTokens(query: v.InferOutput<typeof adminTokenListQuery>): Promise<AdminTokenList> {
    const now = clock.now();
    const named = await namedFilters(query);
    if (named.none) return { tokens: [], total_count: 0 };
    const where = new Where().add(`p.model IN ${TOKEN_MODELS}`);
    if (query.user_id) where.add('a.user_id = :user', { user: query.user_id });
    if (query.partner_id) where.add('a.partner_id = :partner', { partner: query.partner_id });
    for (const [column, name, ids] of [
      ['a.user_id', 'nu', named.users],
      ['a.partner_id', 'np', named.partners],
    ] as const) {
      if (ids) {
        const clause = inList(column, name, ids);
        where.add(clause.sql, clause.params);
      }
    }
    // Revoking a grant deletes its tokens (grants service): an unconsumed, unexpired token row is live.
    const active = '(p.consumed_at IS NULL AND p.expires_at > :now)';
    if (query.active_only === true) where.add(active, { now });
    if (query.active_only === false) where.add(`NOT ${active}`, { now });
    const result = await page<TokenRow>(
      db,
      {
        select: `p.id, p.model, p.payload, p.expires_at, p.consumed_at, a.user_id, a.partner_id, a.site_id,
          a.client_id, a.revoked_at AS grant_revoked_at, a.last_used_at`,
        from: 'oidc_payloads p LEFT JOIN oauth_authorizations a ON a.id = p.grant_id',
        where,
        order: 'p.expires_at DESC, p.id DESC',
        // Without a user or partner filter the count reads the (model, expires_at) index alone.
        countFrom:
          query.user_id || query.partner_id || named.users || named.partners ? undefined : 'oidc_payloads p',
      },
      query,
    );
    return { tokens: result.rows.map((row) => presentAdminToken(row, now)), total_count: result.total };
  }

  async function mailUser(userId: string | null, subject: string, text: string) {
    if (!userId) return;
    const user = await User.findByPk(userId, { attributes: ['email', 'deleted_at'] });
    if (!user || user.deleted_at) return;
    await mailer.send({ to: user.email, subject, text }).catch((error: unknown) => {
      logger.error({ err: error }, 'revocation mail failed');
    });
  }

  async function mailPartner(partnerId: string | null, subject: string, text: string) {
    if (!partnerId) return;
    const partner = await Partner.findByPk(partnerId, { attributes: ['email'] });
    if (!partner) return;
    await mailer.send({ to: partner.email, subject, text }).catch((error: unknown) => {
      logger.error({ err: error }, 'revocation mail failed');
    });
  }

  async function revokeToken(id: string, body: v.InferOutput<typeof adminRevokeTokenBody>, who: AdminActor) {
    const [row] = await db.read<TokenRow>(
      `SELECT p.id, p.model, p.payload, p.expires_at, p.consumed_at, a.user_id, a.partner_id, a.site_id, a.client_id,
        a.revoked_at AS grant_revoked_at, a.last_used_at
       FROM oidc_payloads p LEFT JOIN oauth_authorizations a ON a.id = p.grant_id
       WHERE p.model IN ${TOKEN_MODELS} AND p.id = :id`,
      { id },
    );
    if (!row) throw notFound('Token not found');
    const view = presentAdminToken(row, clock.now());
    if (!view.is_active) throw new AppError(409, 'tokens.not_active', 'This token is no longer active');
    // The delete decides: of two admins revoking at once, one succeeds and the other gets 404.
    const deleted = await db.write(`DELETE FROM oidc_payloads WHERE model IN ${TOKEN_MODELS} AND id = :id`, {
      id,
    });
    if (deleted !== 1) throw notFound('Token not found');
    const reason = body.reason ?? REVOKED_BY_ADMIN;
    await audit.recordSafely({
      event: 'token_revoked',
      severity: 'warning',
      userId: view.user_id,
      partnerId: view.partner_id,
      ...who,
      details: { kind: view.kind, token_id: id, client_id: view.client_id, reason },
    });
    if (body.notify_user) {
      await mailUser(
        view.user_id,
        'An access token was revoked',
        `An administrator revoked a partner's access to your Attestly account.\n\nReason: ${reason}\n`,
      );
    }
    if (body.notify_partner) {
      await mailPartner(
        view.partner_id,
        'An access token was revoked',
        `An Attestly administrator revoked one of your access tokens (${view.kind}, client ${view.client_id}).\n\nReason: ${reason}\n`,
      );
    }
    return { ...view, is_active: false, message: 'Token revoked' };
  }

  async function listAuthorizations(
    query: v.InferOutput<typeof adminTokenListQuery>,
  ): Promise<AdminOAuthAuthorizationList> {
    const now = clock.now();
    const named = await namedFilters(query);
    if (named.none) return { authorizations: [], total_count: 0 };
    const where: WhereOptions<OAuthAuthorization> & Record<string | symbol, unknown> = {};
    const and: unknown[] = [];
    if (query.user_id) and.push({ user_id: query.user_id });
    if (query.partner_id) and.push({ partner_id: query.partner_id });
    if (named.users) and.push({ user_id: named.users });
    if (named.partners) and.push({ partner_id: named.partners });
    if (and.length > 0) where[Op.and] = and;
    if (query.active_only === true) Object.assign(where, { revoked_at: null, expires_at: { [Op.gt]: now } });
    if (query.active_only === false)
      where[Op.or] = [{ revoked_at: { [Op.ne]: null } }, { expires_at: { [Op.lte]: now } }];
    const { rows, total } = await pageOf(
      OAuthAuthorization,
      {
        where,
        order: [
          ['created_at', 'DESC'],
          ['id', 'DESC'],
        ],
      },
      query,
    );
    const names = await grants.namesFor(rows);
    const users = await User.findAll({
      where: { id: [...new Set(rows.map((row) => row.user_id))] },
      attributes: ['id', 'email', 'deleted_at'],
    });
    const emailOf = new Map(users.map((user) => [user.id, user.deleted_at ? null : user.email]));
    return {
      authorizations: rows.map((row) =>
        presentAdminAuthorization(
          row,
          {
            partner: names.partner.get(row.partner_id)?.company_name ?? null,
            site: names.site.get(row.site_id)?.site_name ?? null,
            email: emailOf.get(row.user_id) ?? null,
          },
          now,
        ),
      ),
      total_count: total,
    };
  }

  async function revokeAuthorization(
    id: string,
    body: v.InferOutput<typeof adminRevokeTokenBody>,
    who: AdminActor,
  ) {
    const row = await OAuthAuthorization.findByPk(id);
    if (!row) throw notFound('OAuth authorization not found');
    if (row.revoked_at || row.expires_at <= clock.now())
      throw new AppError(409, 'tokens.not_active', 'This authorization is no longer active');
    const revoked = await grants.revoke(id, 'admin_revoked', { adminUserId: who.adminUserId, origin: who });
    if (!revoked) throw new AppError(409, 'tokens.not_active', 'This authorization is no longer active');
    const reason = body.reason ?? REVOKED_BY_ADMIN;
    await audit.recordSafely({
      event: 'token_revoked',
      severity: 'warning',
      userId: row.user_id,
      partnerId: row.partner_id,
      ...who,
      details: { kind: 'oauth_authorization', authorization_id: id, site_id: row.site_id, reason },
    });
    if (body.notify_user) {
      await mailUser(
        row.user_id,
        'A connection to a partner was revoked',
        `An administrator revoked a partner site's access to your Attestly account.\n\nReason: ${reason}\n`,
      );
    }
    if (body.notify_partner) {
      await mailPartner(
        row.partner_id,
        'An OAuth authorization was revoked',
        `An Attestly administrator revoked a user's authorization for one of your sites (client ${row.client_id}).\n\nReason: ${reason}\n`,
      );
    }
    const reloaded = await OAuthAuthorization.findByPk(id);
    const names = await grants.namesFor([row]);
    return presentAdminAuthorization(
      reloaded ?? row,
      {
        partner: names.partner.get(row.partner_id)?.company_name ?? null,
        site: names.site.get(row.site_id)?.site_name ?? null,
        email: null,
      },
      clock.now(),
    );
  }

  return { listTokens, revokeToken, listAuthorizations, revokeAuthorization };
}
export type AdminTokenService = ReturnType<typeof createAdminTokenService>;
