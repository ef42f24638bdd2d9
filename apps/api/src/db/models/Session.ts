import { flag, nullable, required, sql, stamp, stampedTable, unique, uuidKey } from './columns';
import type { AccountKind } from '@attestly/contracts';

/** A bearer session of any account kind (DESIGN.md §3). Only the SHA-256 of the token is stored. */
export class Session extends stampedTable(
  'sessions',
  {
    id: uuidKey(),
    kind: required(sql.string<AccountKind>(16)),
    subject_id: required(sql.string(64)),
    token_hash: unique(sql.string(64)),
    remember: flag(false),
    ip_address: nullable(sql.string(64)),
    user_agent: nullable(sql.string(512)),
    created_at: stamp(),
    last_used_at: nullable(sql.date()),
    expires_at: required(sql.date()),
  },
  { updatedAt: false },
) {}
