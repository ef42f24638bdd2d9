import { Op, type Transaction } from 'sequelize';
import { ageThresholdOf, type Scope } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import type { OAuthAuthorization } from '../../../db/models/index';
import { toDate } from '../../../db/rows';
import { AppError } from '../../../errors';
import { GRANTABLE_MODELS, type ConsentRow } from '../../../oidc/payload-rows';
import { pairwiseSubject } from '../../../oidc/account';
import { emitWebhookEvent } from '../../partners/webhooks/emit';
import type { AuditService } from '../../shared/audit/service';
import type { RequestOrigin } from '../../shared/sessions/service';

/** How stale a grant's `last_used_at` may get (see `touch`). */
const TOUCH_INTERVAL_MS = 60_000;

/** A user's unrevoked consent for a site with its Grant payload's columns (`g_*`, null when the payload is gone). */
const CONSENT_WITH_GRANT = `SELECT a.id, a.expires_at, a.updated_at,
    g.payload AS g_payload, g.expires_at AS g_expires_at, g.consumed_at AS g_consumed_at
  FROM oauth_authorizations a
  LEFT JOIN oidc_payloads g ON g.model = 'Grant' AND g.id = a.id
  WHERE a.user_id = :userId AND a.client_id = :clientId AND a.revoked_at IS NULL`;

/** Why a grant ended; kept on the row and sent to the partner in the token.revoked event. */
export type RevocationReason =
  | 'user_revoked'
  | 'user_disconnected_partner'
  | 'site_deleted'
  | 'refresh_token_revoked'
  | 'token_reuse_detected'
  | 'admin_revoked'
  | 'account_deleted'
  | 'account_locked';

export interface RevocationActor {
  userId?: string | null;
  partnerId?: string | null;
  adminUserId?: string | null;
  origin?: RequestOrigin;
}

/**
 * Users' grants to partner sites (DESIGN.md §4: a user's "tokens"). A grant is recorded when the user consents;
 * revoking it deletes every provider artefact of the grant (codes, access and refresh tokens, the grant itself) in
 * one statement, marks the row revoked, queues a `token.revoked` event for the partner's webhook in the same
 * transaction (outbox), and writes the audit entry.
 */
export function createGrantService(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'logger'>,
  { audit }: { audit: AuditService },
) {
  const { db, clock, config } = deps;
  const { OAuthAuthorization, OidcPayload, Site, Partner } = db.models;

  async function recordConsent(input: {
    grantId: string;
    userId: string;
    partnerId: string;
    siteId: string;
    clientId: string;
    scopes: Scope[];
    expiresAt: Date;
    jurisdiction: string | null;
  }): Promise<void> {
    const now = clock.now();
    const existing = await OAuthAuthorization.findByPk(input.grantId);
    const fields = {
      scopes: input.scopes,
      age_threshold: ageThresholdOf(input.scopes),
      jurisdiction: input.jurisdiction,
      expires_at: input.expiresAt,
    };
    if (existing) {
      await existing.update({ ...fields, updated_at: now });
      return;
    }
    await OAuthAuthorization.create({
      id: input.grantId,
      user_id: input.userId,
      partner_id: input.partnerId,
      site_id: input.siteId,
      client_id: input.clientId,
      ...fields,
      created_at: now,
      updated_at: now,
      last_used_at: null,
      revoked_at: null,
      revoked_reason: null,
    });
  }

  /**
   * The live grant a user gave a site, if any: consent is remembered per site (and scope set) across browsers.
   * A plain indexed SELECT (db.read) rather than a Sequelize finder: this runs on every authorization request.
   * Revocation and expiry are judged on the row as read, so a revoked grant is never returned on any replica.
   */
  /**
   * The user's live consent for a site (the newest unexpired, unrevoked one) with the stored Grant payload of that id
   * (oauth_authorizations and the provider's Grant share the id), read in one statement: the authorization endpoint
   * needs both, and on PostgreSQL each read is a round trip. `rows` are the same rows when the caller read them
   * already in this request (the session's statement, oidc/adapter.ts). `grant` is null when the payload is gone.
   */
  async function activeGrant(
    userId: string,
    clientId: string,
    rows?: readonly ConsentRow[],
  ): Promise<{
    id: string;
    grant: { payload: string; expires_at: unknown; consumed_at: unknown } | null;
  } | null> {
    const candidates = rows ?? (await db.read<ConsentRow>(CONSENT_WITH_GRANT, { userId, clientId }));
    const now = clock.now().getTime();
    let best: { row: ConsentRow; updated: number } | null = null;
    for (const row of candidates) {
      const expiresAt = toDate(row.expires_at);
      if (!expiresAt || expiresAt.getTime() <= now) continue;
      const updated = toDate(row.updated_at)?.getTime() ?? 0;
      if (!best || updated > best.updated) best = { row, updated };
    }
    if (!best) return null;
    const { id, g_payload: payload, g_expires_at: expiresAt, g_consumed_at: consumedAt } = best.row;
    return {
      id,
      grant: payload === null ? null : { payload, expires_at: expiresAt, consumed_at: consumedAt },
    };
  }

  /**
   * Records that a grant was used (a token issued). Like sessions' `last_used_at`, the time may be up to
   * TOUCH_INTERVAL_MS stale: each process writes it at most once per interval per grant instead of on every token.
   */
  const touchedAt = new Map<string, number>();
  async function touch(grantId: string): Promise<void> {
    const now = clock.now();
    const last = touchedAt.get(grantId);
    if (last !== undefined && now.getTime() - last < TOUCH_INTERVAL_MS && now.getTime() >= last) return;
    if (touchedAt.size >= 10_000) touchedAt.clear();
    touchedAt.set(grantId, now.getTime());
    await OAuthAuthorization.update({ last_used_at: now }, { where: { id: grantId } });
  }

  async function deleteArtefacts(grantId: string, transaction: Transaction): Promise<void> {
    await OidcPayload.destroy({
      where: {
        [Op.or]: [
          { grant_id: grantId, model: [...GRANTABLE_MODELS] },
          { model: 'Grant', id: grantId },
        ],
      },
      transaction,
    });
  }

  /** Revokes one grant. Idempotent: revoking a revoked grant changes nothing and returns false. */
  async function revoke(
    grantId: string,
    reason: RevocationReason,
    actor: RevocationActor = {},
  ): Promise<boolean> {
    const now = clock.now();
    const revoked = await db.sequelize.transaction(async (transaction) => {
      await deleteArtefacts(grantId, transaction);
      const row = await OAuthAuthorization.findByPk(grantId, { transaction });
      if (!row || row.revoked_at) return null;
      await row.update({ revoked_at: now, revoked_reason: reason, updated_at: now }, { transaction });
      await emitWebhookEvent(
        deps,
        {
          partnerId: row.partner_id,
          type: 'token.revoked',
          data: {
            token_id: row.id,
            // The partner knows the user only by its pairwise subject (oidc/account.ts).
            user_id: pairwiseSubject(config.masterKey, row.partner_id, row.user_id),
            partner_id: row.partner_id,
            site_id: row.site_id,
            client_id: row.client_id,
            scopes_granted: row.scopes,
            reason,
            created_at: row.created_at.toISOString(),
            revoked_at: now.toISOString(),
          },
        },
        { transaction },
      );
      return row;
    });
    if (!revoked) return false;
    await audit.recordSafely({
      event: 'oauth.token_revoked',
      userId: revoked.user_id,
      partnerId: revoked.partner_id,
      adminUserId: actor.adminUserId ?? null,
      ip: actor.origin?.ip ?? null,
      userAgent: actor.origin?.userAgent ?? null,
      details: {
        grant_id: revoked.id,
        site_id: revoked.site_id,
        client_id: revoked.client_id,
        scopes: revoked.scopes,
        reason,
      },
    });
    return true;
  }

  const isActive = (row: OAuthAuthorization, now: Date) => !row.revoked_at && row.expires_at > now;

  async function namesFor(rows: OAuthAuthorization[]) {
    const sites = await Site.findAll({
      where: { id: [...new Set(rows.map((row) => row.site_id))] },
      attributes: ['id', 'site_name', 'domain'],
    });
    const partners = await Partner.findAll({
      where: { id: [...new Set(rows.map((row) => row.partner_id))] },
      attributes: ['id', 'company_name'],
    });
    return {
      site: new Map(sites.map((site) => [site.id, site])),
      partner: new Map(partners.map((partner) => [partner.id, partner])),
    };
  }

  return {
    recordConsent,
    activeGrant,
    touch,
    revoke,
    isActive,
    namesFor,
    async listForUser(userId: string) {
      const rows = await OAuthAuthorization.findAll({
        where: { user_id: userId },
        order: [['created_at', 'DESC']],
      });
      return { rows, names: await namesFor(rows) };
    },
    async revokeForUser(userId: string, grantId: string, origin: RequestOrigin): Promise<void> {
      const row = await OAuthAuthorization.findOne({ where: { id: grantId, user_id: userId } });
      if (!row) throw new AppError(404, 'tokens.not_found', 'Token not found');
      if (!isActive(row, clock.now()))
        throw new AppError(409, 'tokens.not_active', 'This token is no longer active');
      await revoke(row.id, 'user_revoked', { userId, origin });
    },
    async revokePartnerForUser(userId: string, partnerId: string, origin: RequestOrigin): Promise<number> {
      const rows = await OAuthAuthorization.findAll({
        where: {
          user_id: userId,
          partner_id: partnerId,
          revoked_at: null,
          expires_at: { [Op.gt]: clock.now() },
        },
      });
      if (rows.length === 0)
        throw new AppError(404, 'partners.not_connected', 'You have no active connection with this partner');
      for (const row of rows) await revoke(row.id, 'user_disconnected_partner', { userId, origin });
      return rows.length;
    },
    async revokeForSite(siteId: string, reason: RevocationReason, actor: RevocationActor): Promise<number> {
      const rows = await OAuthAuthorization.findAll({
        where: { site_id: siteId, revoked_at: null },
        attributes: ['id'],
      });
      let count = 0;
      for (const row of rows) if (await revoke(row.id, reason, actor)) count += 1;
      return count;
    },
  };
}
export type GrantService = ReturnType<typeof createGrantService>;
