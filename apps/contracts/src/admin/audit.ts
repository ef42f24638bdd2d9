import * as v from 'valibot';
import { ADMIN_AUDIT_PAGE_SIZE, AUDIT_SEVERITIES, type AuditSeverity } from './constants';
import { RANGE_MESSAGE, adminPaging, queryDate, rangeInOrder } from './fields';

/** Back office: the audit log. */

export const adminAuditListQuery = v.pipe(
  v.object({
    ...adminPaging(ADMIN_AUDIT_PAGE_SIZE),
    event_type: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.regex(/^[a-z0-9_.]{1,64}$/, 'event_type must be an event name such as partner.created'),
      ),
    ),
    severity: v.optional(
      v.picklist(AUDIT_SEVERITIES, `severity must be one of ${AUDIT_SEVERITIES.join(', ')}`),
    ),
    user_id: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64, 'user_id is too long'))),
    partner_id: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64, 'partner_id is too long'))),
    admin_user_id: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(64, 'admin_user_id is too long'))),
    start_date: queryDate('start_date'),
    end_date: queryDate('end_date', { endOfDay: true }),
  }),
  v.check((input) => rangeInOrder(input), RANGE_MESSAGE),
);
export type AdminAuditListQuery = v.InferInput<typeof adminAuditListQuery>;

/** spec 02 §3 "Audit log". */
export interface AdminAuditLog {
  id: string;
  /** The event in the one naming scheme (canonicalAuditEvent). */
  event_type: string;
  event: string;
  /** Who acted, by e-mail: the administrator, else the user; null for the system or an erased account. */
  actor_email: string | null;
  /** The user the entry is about, by e-mail (null when none, or erased). */
  user_email: string | null;
  /** The partner the entry is about, by name. */
  partner_name: string | null;
  severity: AuditSeverity;
  timestamp: string;
  user_id: string | null;
  partner_id: string | null;
  admin_user_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
  metadata: { hash: string; prev_hash: string };
}

export interface AdminAuditLogList {
  audit_logs: AdminAuditLog[];
  total_count: number;
}
