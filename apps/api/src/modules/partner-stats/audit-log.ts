import { Op, literal } from 'sequelize';
import type * as v from 'valibot';
import type { PartnerAuditEntry, partnerAuditQuery } from '@attestly/contracts';
import type { Config } from '../../config';
import type { Database, Dialect } from '../../db/database';
import type { AuditLog } from '../../db/models';
import { pairwiseSubject } from '../../oidc/account';

/**
 * The site an audit entry is about (`details.site_id`), as SQL. Exactly the expression of the index
 * `audit_logs_partner_site` (migration 20261127040000), so that the database reads it from the index.
 */
export const auditSiteExpression = (dialect: Dialect) =>
  dialect === 'postgres' ? `((details::jsonb) ->> 'site_id')` : `json_extract(details, '$.site_id')`;

export interface PartnerAuditScope {
  /** A sandbox API key: only the entries about the partner's sandbox sites (issue 21 item 7). */
  sandboxOnly?: boolean;
}

/**
 * GET /partners/audit-logs (spec 01 §5): the partner's own entries, newest first, with search and filters. A sandbox
 * API key sees only the entries about its partner's sandbox sites (their sign-ins, consents, tokens and
 * verifications, and the sites' own changes); entries about no site (keys, webhooks, plan, sign-in to the portal)
 * and about live sites are the live environment's.
 */
export function createPartnerAuditLog({ db, config }: { db: Database; config: Pick<Config, 'masterKey'> }) {
  const { AuditLog } = db.models;

  function present(row: AuditLog, partnerId: string): PartnerAuditEntry {
    let details: Record<string, unknown> = {};
    try {
      details = JSON.parse(row.details) as Record<string, unknown>;
    } catch {
      details = {};
    }
    return {
      id: String(row.id),
      event: row.event_type,
      event_type: row.event_type,
      severity: row.severity,
      timestamp: row.created_at.toISOString(),
      // A partner knows its users only by their pairwise subject (the `sub` its sites receive).
      user_id: row.user_id ? pairwiseSubject(config.masterKey, partnerId, row.user_id) : null,
      ip_address: row.ip_address,
      user_agent: row.user_agent,
      details,
    };
  }

  async function list(
    partnerId: string,
    query: v.InferOutput<typeof partnerAuditQuery>,
    scope: PartnerAuditScope = {},
  ) {
    const where: Record<string | symbol, unknown> = { partner_id: partnerId };
    const conditions: unknown[] = [];
    if (query.event) where.event_type = query.event;
    if (query.severity) where.severity = query.severity;
    const range: Record<symbol, Date> = {};
    if (query.start) range[Op.gte] = new Date(query.start);
    if (query.end) range[Op.lte] = new Date(query.end);
    if (query.start || query.end) where.created_at = range;
    if (query.search) {
      // LIKE wildcards are dropped rather than escaped: SQLite has no default escape character. The screen also
      // matches the user column (pairwise subjects, which the database cannot search) on the page it shows.
      const like = `%${query.search.replace(/[\\%_]/g, '')}%`;
      conditions.push({
        [Op.or]: [{ event_type: { [Op.like]: like } }, { ip_address: { [Op.like]: like } }],
      });
    }
    if (scope.sandboxOnly) {
      const partner = db.sequelize.escape(partnerId);
      const sandbox = db.dialect === 'postgres' ? 'true' : '1';
      conditions.push(
        literal(
          `${auditSiteExpression(db.dialect)} IN (SELECT CAST(id AS TEXT) FROM sites WHERE partner_id = ${partner} AND sandbox = ${sandbox})`,
        ),
      );
    }
    if (conditions.length > 0) where[Op.and] = conditions;
    const { rows, count } = await AuditLog.findAndCountAll({
      where,
      order: [['id', 'DESC']],
      offset: query.skip,
      limit: query.limit,
    });
    return { audit_logs: rows.map((row) => present(row, partnerId)), total_count: count };
  }

  return { list };
}
