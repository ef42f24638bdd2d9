import type * as v from 'valibot';
import type { adminAuditListQuery, AdminAuditLogList } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { Where, page } from '../common';
import { presentAuditLog, type AuditRow } from './presenters';

/**
 * The audit trail for administrators (spec 02 "Audit"): every filter of §7, newest first. The filters use the
 * (column, created_at) indexes, so a page costs the same with a million rows as with a thousand.
 */
export function createAdminAuditService({ db }: Pick<Deps, 'db'>) {
  async function list(query: v.InferOutput<typeof adminAuditListQuery>): Promise<AdminAuditLogList> {
    const where = new Where();
    if (query.event_type) where.add('event_type = :event', { event: query.event_type });
    if (query.severity) where.add('severity = :severity', { severity: query.severity });
    if (query.user_id) where.add('user_id = :user', { user: query.user_id });
    if (query.partner_id) where.add('partner_id = :partner', { partner: query.partner_id });
    if (query.admin_user_id) where.add('admin_user_id = :admin', { admin: query.admin_user_id });
    if (query.start_date) where.add('created_at >= :start', { start: query.start_date });
    if (query.end_date) where.add('created_at <= :end', { end: query.end_date });
    const result = await page<AuditRow>(
      db,
      // Deferred join: the page's ids over the (filter, created_at, id) index, then the rows by id.
      { select: '*', from: 'audit_logs', where, order: 'created_at DESC, id DESC', key: 'id' },
      query,
    );
    return { audit_logs: result.rows.map(presentAuditLog), total_count: result.total };
  }
  return { list };
}
export type AdminAuditService = ReturnType<typeof createAdminAuditService>;
