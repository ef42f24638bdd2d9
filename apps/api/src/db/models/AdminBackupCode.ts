import { nullable, required, sql, stamp, stampedTable, uuidKey } from './columns';

/** One single-use backup code of an administrator; only a keyed hash is stored. */
export class AdminBackupCode extends stampedTable(
  'admin_backup_codes',
  {
    id: uuidKey(),
    admin_id: required(sql.uuid()),
    code_hash: required(sql.string(64)),
    used_at: nullable(sql.date()),
    created_at: stamp(),
  },
  { updatedAt: false },
) {}
