import { nullable, required, sql, stamp, stampedTable, unique, uuidKey } from './columns';
import type { ApiKeyEnvironment } from '@attestly/contracts';

/** A partner API key (DESIGN.md §3). Only the SHA-256 of the key is stored; `prefix` is what screens show. */
export class ApiKey extends stampedTable(
  'api_keys',
  {
    id: uuidKey(),
    partner_id: required(sql.uuid()),
    environment: required(sql.string<ApiKeyEnvironment>(8)),
    prefix: required(sql.string(24)),
    key_hash: unique(sql.string(64)),
    last_used_at: nullable(sql.date()),
    revoked_at: nullable(sql.date()),
    created_at: stamp(),
  },
  { updatedAt: false },
) {}
