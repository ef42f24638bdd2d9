import { randomBytes } from 'node:crypto';
import { Op, col, fn, where as sqlWhere } from 'sequelize';
import type * as v from 'valibot';
import type {
  adminCreatePartnerBody,
  adminCreateSiteBody,
  adminDeactivatePartnerBody,
  adminPartnerActionBody,
  adminPartnerListQuery,
  adminUpdatePartnerBody,
} from '@attestly/contracts';
import { PARTNER_INVITATION_DAYS, type AdminPartnerDetail } from '@attestly/contracts';
import type { Partner } from '../../../db/models/index';
import type { Deps } from '../../../core/deps';
import { AppError, notFound } from '../../../errors';
import { hashPassword } from '../../../lib/passwords';
import { forgetClient } from '../../../oidc/adapter';
import type { ApiKeyService } from '../../partners/api-keys/service';
import type { AuditService } from '../../shared/audit/service';
import type { PartnerStatsService } from '../../partners/stats/service';
import type { SessionService } from '../../shared/sessions/service';
import type { SiteService } from '../../partners/sites/service';
import { mailOutboxFor } from '../../shared/notifications/outbox';
import { createOneTimeTokens } from '../../users/accounts/one-time-tokens';
import { countsBy, type AdminActor } from '../common';
import { num, pageOf } from '../../shared/paging/page';
import { LIKE_ESCAPE, likePattern } from '../../shared/paging/search';
import { presentAdminPartner, presentAdminSite } from './presenters';

type Services = {
  audit: AuditService;
  sessions: SessionService;
  sites: SiteService;
  apiKeys: ApiKeyService;
  partnerStats: PartnerStatsService;
};

/**
 * Partners as the back office manages them (spec 02 "Partner list", "Partner detail"): real statistics, and real
 * approve / suspend / deactivate (the reference only showed notices). Suspending ends the partner's sessions;
 * its API keys stop authenticating at once because the key middleware refuses suspended partners.
 */
export function createAdminPartnerService(deps: Deps, services: Services) {
  const { db, clock, config, mailer, logger } = deps;
  const { audit, sessions, sites, apiKeys, partnerStats } = services;
  const { Partner, Site, ApiKey, WebhookEndpoint } = db.models;
  const oneTimeTokens = createOneTimeTokens(deps);
  const outbox = mailOutboxFor(deps);

  async function extrasFor(partners: Partner[]) {
    const ids = partners.map((partner) => partner.id);
    const cardCheck = config.cardCheck !== null;
    if (ids.length === 0)
      return () => ({
        totalSites: 0,
        totalVerifications: 0,
        apiKeyPrefix: null,
        webhookUrl: null,
        siteScopes: [],
        cardCheck,
      });
    const [siteCounts, verificationCounts, keys, hooks, liveSites] = await Promise.all([
      countsBy(db, 'sites', 'partner_id', ids, 'AND deleted_at IS NULL'),
      countsBy(db, 'verifications', 'partner_id', ids),
      ApiKey.findAll({
        where: { partner_id: ids, revoked_at: null },
        attributes: ['partner_id', 'prefix', 'environment', 'created_at'],
        order: [['created_at', 'DESC']],
      }),
      WebhookEndpoint.findAll({ where: { partner_id: ids }, attributes: ['partner_id', 'url'] }),
      Site.findAll({
        where: { partner_id: ids, deleted_at: null, is_active: true },
        attributes: ['partner_id', 'allowed_scopes'],
      }),
    ]);
    const scopesOf = new Map<string, Set<string>>();
    for (const site of liveSites) {
      const scopes = scopesOf.get(site.partner_id) ?? new Set<string>();
      for (const scope of site.allowed_scopes) scopes.add(scope);
      scopesOf.set(site.partner_id, scopes);
    }
    const keyOf = new Map<string, string>();
    // The live key if there is one, else the newest.
    for (const key of keys) {
      if (!keyOf.has(key.partner_id) || key.environment === 'live') keyOf.set(key.partner_id, key.prefix);
    }
    const hookOf = new Map(hooks.map((hook) => [hook.partner_id, hook.url]));
    return (id: string) => ({
      totalSites: siteCounts.get(id) ?? 0,
      totalVerifications: verificationCounts.get(id) ?? 0,
      apiKeyPrefix: keyOf.get(id) ?? null,
      webhookUrl: hookOf.get(id) ?? null,
      siteScopes: [...(scopesOf.get(id) ?? [])],
      cardCheck,
    });
  }

  async function list(query: v.InferOutput<typeof adminPartnerListQuery>) {
    const where: Record<string | symbol, unknown> = {};
    if (query.status) where.status = query.status;
    if (query.plan) where.plan = query.plan;
    if (query.search) {
      const pattern = likePattern(query.search);
      const like = (column: string) =>
        db.sequelize.literal(`LOWER(${column}) LIKE ${db.sequelize.escape(pattern)} ${LIKE_ESCAPE}`);
      where[Op.or] = [like('company_name'), like('email'), like('contact_name')];
    }
    const { rows, total } = await pageOf(
      Partner,
      {
        where,
        order: [
          ['created_at', 'DESC'],
          ['id', 'DESC'],
        ],
      },
      query,
    );
    const extras = await extrasFor(rows);
    return { partners: rows.map((row) => presentAdminPartner(row, extras(row.id))), total_count: total };
  }

  async function findPartner(id: string): Promise<Partner> {
    const partner = await Partner.findByPk(id);
    if (!partner) throw notFound('Partner not found');
    return partner;
  }

  async function siteList(partnerId: string) {
    const rows = await Site.findAll({
      where: { partner_id: partnerId, deleted_at: null },
      order: [['created_at', 'DESC']],
    });
    const ids = rows.map((row) => row.id);
    const [verifications, authorizations] = await Promise.all([
      countsBy(db, 'verifications', 'site_id', ids),
      countsBy(db, 'oauth_authorizations', 'site_id', ids, 'AND revoked_at IS NULL AND expires_at > :now', {
        now: clock.now(),
      }),
    ]);
    return rows.map((site) =>
      presentAdminSite(site, {
        verifications: verifications.get(site.id) ?? 0,
        authorizations: authorizations.get(site.id) ?? 0,
      }),
    );
  }

  async function detail(id: string): Promise<AdminPartnerDetail> {
    const partner = await findPartner(id);
    const [extras, siteViews, stats, pending] = await Promise.all([
      extrasFor([partner]),
      siteList(id),
      partnerStats.forPartner(id),
      db.read<{ n: number | string }>(
        "SELECT COUNT(*) AS n FROM verifications WHERE partner_id = :id AND status = 'pending'",
        { id },
      ),
    ]);
    return {
      ...presentAdminPartner(partner, extras(id)),
      sites: siteViews,
      statistics: {
        total_verifications: stats.total_verifications,
        successful_verifications: stats.successful_verifications,
        failed_verifications: stats.failed_verifications,
        pending_verifications: num(pending[0]?.n),
        total_sites: stats.total_sites,
        active_oauth_auths: stats.active_tokens,
      },
    };
  }

  async function notify(partner: Partner, subject: string, text: string): Promise<void> {
    try {
      await mailer.send({ to: partner.email, subject, text });
    } catch (error) {
      logger.error({ err: error }, 'partner notification mail failed');
    }
  }

  async function create(body: v.InferOutput<typeof adminCreatePartnerBody>, who: AdminActor) {
    const taken = await Partner.findOne({
      where: sqlWhere(fn('LOWER', col('email')), body.contact_email),
      attributes: ['id'],
    });
    if (taken) {
      throw new AppError(409, 'partners.email_taken', 'A partner with this email already exists', [
        { path: 'contact_email', message: 'A partner with this email already exists' },
      ]);
    }
    // The partner signs in with this first password (handed over by the admin) and changes it.
    const temporaryPassword = randomBytes(12).toString('base64url');
    const now = clock.now();
    const status = body.skip_email_verification ? body.status : 'pending_verification';
    const partner = await Partner.create({
      email: body.contact_email,
      password_hash: await hashPassword(temporaryPassword, config.passwordCost),
      company_name: body.partner_name,
      contact_name: body.contact_name,
      phone: body.phone,
      website: body.website,
      business_type: body.company_type,
      status,
      plan: body.plan,
      locked_until: null,
      last_login_at: null,
      created_at: now,
      updated_at: now,
    });
    await audit.recordSafely({
      event: 'partner_created',
      partnerId: partner.id,
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
      details: {
        partner_name: body.partner_name,
        plan: body.plan,
        status,
        skip_email_verification: body.skip_email_verification,
        sign_in: body.sign_in,
      },
    });
    if (body.sign_in === 'send_invitation') {
      // The link is a password-reset token of a longer life (partners/account.ts resetPassword consumes it): choosing
      // a password through it also proves the address. The random first password above is never shown to anyone.
      const token = await oneTimeTokens.issue('partner_password_reset', partner.id, {
        ttlMs: PARTNER_INVITATION_DAYS * 86_400_000,
        target: partner.email,
      });
      const activation =
        status === 'pending_verification'
          ? 'Your account will be usable once an administrator has confirmed your details.\n\n'
          : '';
      await outbox.enqueue({
        to: partner.email,
        subject: 'You are invited to your Attestly partner account',
        text:
          `Hello ${body.contact_name},\n\nAn Attestly partner account was created for ${body.partner_name}. To sign ` +
          `in, choose your password by opening this link within ${PARTNER_INVITATION_DAYS} days:\n` +
          `${config.publicUrl}/partner/reset-password?token=${encodeURIComponent(token)}\n\n${activation}` +
          `Then sign in at ${config.publicUrl}/partner/login with ${partner.email}.\n`,
      });
      return { ...(await detail(partner.id)), invitation_sent_to: partner.email };
    }
    if (!body.skip_email_verification) {
      await notify(
        partner,
        'Your Attestly partner account',
        `Hello ${body.contact_name},\n\nAn Attestly partner account was created for ${body.partner_name} with this ` +
          'address. It will be activated once an administrator has confirmed your details; you will receive your ' +
          'first password from them.\n',
      );
    }
    return { ...(await detail(partner.id)), temporary_password: temporaryPassword };
  }

  /**
   * The provider serves a partner's sites only while the partner is active, and caches clients for 2 s per replica:
   * drop this replica's cached clients so a status change applies to /oauth2 at once here (DESIGN.md §4).
   */
  async function forgetPartnerSites(partnerId: string) {
    const sites = await db.models.Site.findAll({
      where: { partner_id: partnerId },
      attributes: ['client_id'],
    });
    for (const site of sites) forgetClient(db, site.client_id);
  }

  async function setStatus(partner: Partner, status: string, now: Date) {
    await Partner.update({ status, updated_at: now }, { where: { id: partner.id } });
    // A suspended partner's sign-ins end now; its API keys are refused by the key middleware.
    if (status === 'suspended') await sessions.revokeAll('partner', partner.id);
    await forgetPartnerSites(partner.id);
  }

  async function update(id: string, body: v.InferOutput<typeof adminUpdatePartnerBody>, who: AdminActor) {
    const partner = await findPartner(id);
    const now = clock.now();
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (body.contact_name !== undefined && body.contact_name !== partner.contact_name)
      changes.contact_name = { from: partner.contact_name, to: body.contact_name };
    if (body.plan !== undefined && body.plan !== partner.plan)
      changes.plan = { from: partner.plan, to: body.plan };
    if (body.status !== undefined && body.status !== partner.status)
      changes.status = { from: partner.status, to: body.status };
    await Partner.update(
      {
        ...(body.contact_name !== undefined ? { contact_name: body.contact_name } : {}),
        ...(body.plan !== undefined ? { plan: body.plan } : {}),
        updated_at: now,
      },
      { where: { id } },
    );
    if (body.status !== undefined && body.status !== partner.status)
      await setStatus(partner, body.status, now);
    await audit.recordSafely({
      event: 'partner_updated',
      partnerId: id,
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
      details: { changes },
    });
    return detail(id);
  }

  async function changeStatus(
    id: string,
    target: 'active' | 'suspended',
    event: 'partner_deactivated' | 'partner_suspended' | 'partner_approved',
    body: v.InferOutput<typeof adminPartnerActionBody>,
    who: AdminActor,
    allowedFrom: readonly string[],
  ) {
    const partner = await findPartner(id);
    if (!allowedFrom.includes(partner.status)) {
      throw new AppError(409, 'partners.wrong_status', `This partner is ${partner.status.replace('_', ' ')}`);
    }
    const now = clock.now();
    // Conditional on the status read: two admins acting at once do not both succeed.
    const [changed] = await Partner.update(
      { status: target, updated_at: now },
      { where: { id, status: partner.status } },
    );
    if (changed !== 1)
      throw new AppError(409, 'partners.conflict', 'This partner was changed meanwhile; reload it');
    if (target === 'suspended') await sessions.revokeAll('partner', id);
    await forgetPartnerSites(id);
    await audit.recordSafely({
      event,
      severity: target === 'suspended' ? 'warning' : 'info',
      partnerId: id,
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
      details: { reason: body.reason, from: partner.status, to: target, notified: body.notify_partner },
    });
    if (body.notify_partner) {
      const text =
        target === 'active'
          ? 'Your Attestly partner account is now active. You can sign in and create sites.'
          : `Your Attestly partner account has been ${event === 'partner_deactivated' ? 'deactivated' : 'suspended'}.` +
            (body.reason ? `\n\nReason: ${body.reason}` : '') +
            '\n\nYour API keys and sign-ins no longer work. Please contact support if you have questions.';
      const word = event === 'partner_deactivated' ? 'deactivated' : 'suspended';
      await notify(
        partner,
        target === 'active'
          ? 'Your Attestly partner account is active'
          : `Your Attestly partner account was ${word}`,
        text,
      );
    }
    return detail(id);
  }

  const deactivate = (id: string, body: v.InferOutput<typeof adminDeactivatePartnerBody>, who: AdminActor) =>
    changeStatus(id, 'suspended', 'partner_deactivated', body, who, ['active']);
  const suspend = (id: string, body: v.InferOutput<typeof adminPartnerActionBody>, who: AdminActor) =>
    changeStatus(id, 'suspended', 'partner_suspended', body, who, ['active', 'pending_verification']);
  const approve = (id: string, body: v.InferOutput<typeof adminPartnerActionBody>, who: AdminActor) =>
    changeStatus(id, 'active', 'partner_approved', body, who, ['pending_verification', 'suspended']);

  /**
   * Deletes a partner account nobody has used (one created by mistake, say): no verification counted for it, no
   * user's grant to its sites, no paid subscription. Anything else keeps its history and is deactivated instead:
   * 409 with that advice. Its sites, keys and webhooks go with it (foreign keys cascade); its sign-ins end and
   * /oauth2 forgets its clients at once. The audit trail keeps the entries about it.
   */
  async function remove(id: string, who: AdminActor): Promise<void> {
    const partner = await findPartner(id);
    const [used] = await db.read<{
      verifications: number | string;
      grants: number | string;
      paid: number | string;
    }>(
      `SELECT
         (SELECT COUNT(*) FROM verifications WHERE partner_id = :id) AS verifications,
         (SELECT COUNT(*) FROM oauth_authorizations WHERE partner_id = :id) AS grants,
         (SELECT COUNT(*) FROM partner_subscriptions WHERE partner_id = :id AND stripe_subscription_id IS NOT NULL)
           AS paid`,
      { id },
    );
    if (num(used?.verifications) > 0 || num(used?.grants) > 0 || num(used?.paid) > 0) {
      throw new AppError(
        409,
        'partners.in_use',
        'This partner has verifications, users who connected to its sites or a paid plan; deactivate it instead',
      );
    }
    await forgetPartnerSites(id);
    await sessions.revokeAll('partner', id);
    await db.sequelize.transaction(async (transaction) => {
      for (const table of ['partner_stats_daily', 'partner_stats_countries']) {
        await db.sequelize.query(`DELETE FROM ${table} WHERE partner_id = :id`, {
          replacements: { id },
          transaction,
        });
      }
      await Partner.destroy({ where: { id }, transaction });
    });
    await audit.recordSafely({
      event: 'partner_deleted',
      severity: 'warning',
      partnerId: id,
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
      details: { partner_name: partner.company_name, contact_email: partner.email },
    });
  }

  /** Replaces the partner's live key (or creates the first one); the new key is shown once. */
  async function regenerateApiKey(id: string, who: AdminActor) {
    await findPartner(id);
    const keys = await apiKeys.list(id);
    const current = keys.find((key) => key.environment === 'live') ?? keys[0];
    const actorInfo = { adminUserId: who.adminUserId, origin: who };
    const created = current
      ? await apiKeys.regenerate({ partnerId: id, keyId: current.id }, actorInfo)
      : await apiKeys.create({ partnerId: id, environment: 'live' }, actorInfo);
    await audit.recordSafely({
      event: 'api_key_regenerated',
      severity: 'warning',
      partnerId: id,
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
      details: {
        api_key_id: created.key.id,
        replaced_api_key_id: current?.id ?? null,
        prefix: created.key.prefix,
      },
    });
    return {
      api_key: created.api_key,
      key_id: created.key.id,
      message: current
        ? 'API key regenerated. The previous key no longer works.'
        : 'API key created. Copy it now: it is shown only once.',
    };
  }

  async function createSite(
    partnerId: string,
    body: v.InferOutput<typeof adminCreateSiteBody>,
    who: AdminActor,
  ) {
    await findPartner(partnerId);
    const { site, clientSecret } = await sites.create(
      partnerId,
      { ...body, client_type: 'confidential' },
      { ip: who.ip, userAgent: who.userAgent },
    );
    await audit.recordSafely({
      event: 'site_created',
      partnerId,
      adminUserId: who.adminUserId,
      ip: who.ip,
      userAgent: who.userAgent,
      details: { site_id: site.id, site_name: site.site_name, domain: site.domain },
    });
    return {
      ...presentAdminSite(site, { verifications: 0, authorizations: 0 }),
      client_secret: clientSecret,
    };
  }

  return {
    list,
    detail,
    create,
    remove,
    update,
    deactivate,
    suspend,
    approve,
    regenerateApiKey,
    sites: siteList,
    createSite,
    findPartner,
  };
}
export type AdminPartnerService = ReturnType<typeof createAdminPartnerService>;
