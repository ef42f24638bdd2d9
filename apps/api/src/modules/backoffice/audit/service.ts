import type * as v from 'valibot';
import { storedAuditEventNames, type adminAuditListQuery, type AdminAuditLogList } from '@attestly/contracts';
import type { Deps } from '../../../core/deps';
import { Where, page } from '../../shared/paging/page';
import { presentAuditLog, type AuditNames, type AuditRow } from './presenters';

/**
 * The audit trail for administrators (spec 02 "Audit"): every filter of §7, newest first. The filters use the
 * (column, created_at) indexes, so a page costs the same with a million rows as with a thousand.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createAdminAuditService({ db }: Pick<Deps, 'db'>) {
  async function list(query: v.InferOutput<typeof adminAuditListQuery>): Promise<AdminAuditLogList> {
    const where = new Where();
    if (query.event_type) {
      // Either spelling of the event (contracts AUDIT_EVENT_NAMES) finds the rows of both.
      const names = storedAuditEventNames(query.event_type);
      where.add(`event_type IN (${names.map((_, index) => `:event${index}`).join(', ')})`, {
        ...Object.fromEntries(names.map((name, index) => [`event${index}`, name])),
      });
    }
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
    const names = await namesOf(result.rows);
    return { audit_logs: result.rows.map((row) => presentAuditLog(row, names)), total_count: result.total };
  }

  /** The page's people and partners by e-mail and name: three lookups by primary key. */
  async function namesOf(rows: AuditRow[]): Promise<AuditNames> {
    const ids = (pick: (row: AuditRow) => string | null) => [
      ...new Set(rows.map(pick).filter((id): id is string => id !== null && UUID.test(id))),
    ];
    const lookup = async (table: string, column: string, list: string[]) => {
      if (list.length === 0) return new Map<string, string>();
      const found = await db.read<{ id: string; name: string }>(
        `SELECT id, ${column} AS name FROM ${table} WHERE id IN (${list.map((_, index) => `:id${index}`).join(', ')})`,
        Object.fromEntries(list.map((id, index) => [`id${index}`, id])),
      );
      return new Map(
        found
          // An erased account keeps a placeholder address: it names nobody.
          .filter((row) => !row.name.endsWith('@deleted.invalid'))
          .map((row) => [String(row.id), row.name]),
      );
    };
    const [admins, users, partners] = await Promise.all([
      lookup(
        'admins',
        'email',
        ids((row) => row.admin_user_id),
      ),
      lookup(
        'users',
        'email',
        ids((row) => row.user_id),
      ),
      lookup(
        'partners',
        'company_name',
        ids((row) => row.partner_id),
      ),
    ]);
    return { admins, users, partners };
  }
  return { list };
}
export type AdminAuditService = ReturnType<typeof createAdminAuditService>;
