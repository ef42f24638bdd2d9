import { nullable, required, sql, stamp, stampedTable, uuidKey } from './columns';

/** An administrator's flag on a user (spec 02 "Flag request"); open while `resolved_at` is null. */
export class UserFlag extends stampedTable(
  'user_flags',
  {
    id: uuidKey(),
    user_id: required(sql.uuid()),
    reason: required(sql.string(500)),
    priority: required(sql.string(16)),
    reviewer_notes: nullable(sql.text()),
    flagged_by: nullable(sql.string(64)),
    created_at: stamp(),
    resolved_at: nullable(sql.date()),
    resolved_by: nullable(sql.string(64)),
    resolution_notes: nullable(sql.text()),
  },
  { updatedAt: false },
) {}
