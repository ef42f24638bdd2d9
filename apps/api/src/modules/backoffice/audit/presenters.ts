import { canonicalAuditEvent, type AdminAuditLog, type AuditSeverity } from '@attestly/contracts';
import { toDate } from '../../../db/rows';
import type { ChainedFields } from '../../shared/audit/service';

/** An audit_logs row as read back: the chained fields (shared/audit/service.ts), its id and its place in the chain. */
export interface AuditRow extends Omit<ChainedFields, 'created_at'> {
  id: number | string;
  created_at: unknown;
  prev_hash: string;
  hash: string;
}

/** E-mail addresses and partner names by id, read for one page of entries. */
export interface AuditNames {
  admins: Map<string, string>;
  users: Map<string, string>;
  partners: Map<string, string>;
}

export function presentAuditLog(row: AuditRow, names: AuditNames): AdminAuditLog {
  const userEmail = row.user_id ? (names.users.get(row.user_id) ?? null) : null;
  let details: Record<string, unknown> = {};
  try {
    details = JSON.parse(row.details) as Record<string, unknown>;
  } catch {
    details = { raw: row.details };
  }
  return {
    id: String(row.id),
    event_type: canonicalAuditEvent(row.event_type),
    event: canonicalAuditEvent(row.event_type),
    actor_email: row.admin_user_id ? (names.admins.get(row.admin_user_id) ?? null) : userEmail,
    user_email: userEmail,
    partner_name: row.partner_id ? (names.partners.get(row.partner_id) ?? null) : null,
    severity: (row.severity || 'info') as AuditSeverity,
    timestamp: (toDate(row.created_at) as Date).toISOString(),
    user_id: row.user_id,
    partner_id: row.partner_id,
    admin_user_id: row.admin_user_id,
    ip_address: row.ip_address,
    user_agent: row.user_agent,
    details,
    metadata: { hash: row.hash, prev_hash: row.prev_hash },
  };
}
