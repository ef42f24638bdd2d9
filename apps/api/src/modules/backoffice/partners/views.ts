import { Op } from 'sequelize';
import type * as v from 'valibot';
import type { adminPartnerListQuery, AdminPartnerDetail } from '@attestly/contracts';
import type { Partner } from '../../../db/models/index';
import type { Deps } from '../../../core/deps';
import { notFound } from '../../../errors';
import type { PartnerStatsService } from '../../partners/stats/service';
import { num, pageOf } from '../../shared/paging/page';
import { LIKE_ESCAPE, likePattern } from '../../shared/paging/search';
import { countsBy } from '../common';
import { presentAdminPartner, presentAdminSite } from './presenters';

/**
 * Partners as the back office reads them (spec 02 "Partner list", "Partner detail"): the list with its filters, and
 * a partner with its sites and real statistics.
 */
export function createPartnerViews(
  { db, clock, config }: Pick<Deps, 'db' | 'clock' | 'config'>,
  { partnerStats }: { partnerStats: PartnerStatsService },
) {
  const { Partner, Site, ApiKey, WebhookEndpoint } = db.models;

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

  return { list, detail, findPartner, siteList };
}
