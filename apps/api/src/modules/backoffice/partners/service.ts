import { randomBytes } from 'node:crypto';
import { col, fn, where as sqlWhere } from 'sequelize';
import type * as v from 'valibot';
import type {
  adminCreatePartnerBody,
  adminCreateSiteBody,
  adminDeactivatePartnerBody,
  adminPartnerActionBody,
  adminUpdatePartnerBody,
} from '@attestly/contracts';
import { PARTNER_INVITATION_DAYS } from '@attestly/contracts';
import type { Partner } from '../../../db/models/index';
import type { Deps } from '../../../core/deps';
import { AppError } from '../../../errors';
import { hashPassword } from '../../../lib/passwords';
import { forgetClient } from '../../../oidc/clients';
import type { ApiKeyService } from '../../partners/api-keys/service';
import type { AuditService } from '../../shared/audit/service';
import type { PartnerStatsService } from '../../partners/stats/service';
import type { SessionService } from '../../shared/sessions/service';
import type { SiteService } from '../../partners/sites/service';
import { mailOutboxFor } from '../../shared/notifications/outbox';
import { createOneTimeTokens } from '../../users/accounts/one-time-tokens';
import { type AdminActor } from '../common';
import { num } from '../../shared/paging/page';
import { presentAdminSite } from './presenters';
import { createPartnerViews } from './views';

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
 * its API keys stop authenticating at once because the key middleware refuses suspended partners. The list and the
 * detail are read in views.ts.
 */
export function createAdminPartnerService(deps: Deps, services: Services) {
  const { db, clock, config, mailer, logger } = deps;
  const { audit, sessions, sites, apiKeys, partnerStats } = services;
  const { Partner } = db.models;
  const oneTimeTokens = createOneTimeTokens(deps);
  const outbox = mailOutboxFor(deps);

  const { list, detail, findPartner, siteList } = createPartnerViews(deps, { partnerStats });

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
      ...who,
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
      ...who,
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
      ...who,
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
      ...who,
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
      ...who,
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
      ...who,
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
