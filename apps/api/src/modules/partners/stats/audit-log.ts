import { Op, literal } from 'sequelize';
import type * as v from 'valibot';
import {
  canonicalAuditEvent,
  storedAuditEventNames,
  type PartnerAuditEntry,
  type partnerAuditQuery,
} from '@attestly/contracts';
import type { Config } from '../../../config';
import type { Database, Dialect } from '../../../db/database';
import type { AuditLog } from '../../../db/models/index';
import { pairwiseSubject } from '../../../oidc/account';
import { pageOf } from '../../shared/paging/page';

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
      event: canonicalAuditEvent(row.event_type),
      event_type: canonicalAuditEvent(row.event_type),
      severity: row.severity,
      timestamp: row.created_at.toISOString(),
      // A partner knows its users only by their pairwise subject (the `sub` its sites receive).
      user_id: row.user_id ? pairwiseSubject(config.masterKey, partnerId, row.user_id) : null,
      ip_address: row.ip_address,
      user_agent: row.user_agent,
      details,
    };
  }

  /**
   * The users whose pairwise subject (what the partner's sites and this log call `user_id`) starts with `search`.
   * Subjects are keyed hashes that the database cannot search, so the candidates are the users this partner's log
   * names, hashed here; a search shorter than 8 hex digits matches no user (too many would share a prefix).
   */
  async function usersBySubject(partnerId: string, search: string): Promise<string[]> {
    const prefix = search.toLowerCase();
    if (!/^[0-9a-f]{8,64}$/.test(prefix)) return [];
    const rows = await db.read<{ user_id: string }>(
      'SELECT DISTINCT user_id FROM audit_logs WHERE partner_id = :partnerId AND user_id IS NOT NULL',
      { partnerId },
    );
    return rows
      .map((row) => row.user_id)
      .filter((userId) => pairwiseSubject(config.masterKey, partnerId, userId).startsWith(prefix));
  }

  async function list(
    partnerId: string,
    query: v.InferOutput<typeof partnerAuditQuery>,
    scope: PartnerAuditScope = {},
  ) {
    const where: Record<string | symbol, unknown> = { partner_id: partnerId };
    const conditions: unknown[] = [];
    if (query.event) where.event_type = storedAuditEventNames(query.event);
    if (query.severity) where.severity = query.severity;
    const range: Record<symbol, Date> = {};
    if (query.start) range[Op.gte] = new Date(query.start);
    if (query.end) range[Op.lte] = new Date(query.end);
    if (query.start || query.end) where.created_at = range;
    if (query.search) {
      // LIKE wildcards are dropped rather than escaped: SQLite has no default escape character.
      const like = `%${query.search.replace(/[\\%_]/g, '')}%`;
      const matches: unknown[] = [{ event_type: { [Op.like]: like } }, { ip_address: { [Op.like]: like } }];
      const users = await usersBySubject(partnerId, query.search);
      if (users.length > 0) matches.push({ user_id: users });
      conditions.push({ [Op.or]: matches });
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
    const { rows, total } = await pageOf(AuditLog, { where, order: [['id', 'DESC']] }, query);
    return { audit_logs: rows.map((row) => present(row, partnerId)), total_count: total };
  }

  return { list };
}
