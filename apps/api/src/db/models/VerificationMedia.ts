import { required, sql, stamp, stampedTable, uuidKey } from './columns';

/**
 * Media kept for a manual review, encrypted with AES-256-GCM under a key derived from the master key
 * (lib/media-crypto.ts). Only cases that need a person get a row; everything else is analysed in memory and
 * dropped. Rows are deleted when the case is reviewed or when `purge_after` passes, whichever comes first.
 */
export class VerificationMedia extends stampedTable(
  'verification_media',
  {
    id: uuidKey(),
    verification_id: required(sql.uuid()),
    content_type: required(sql.string(64)),
    byte_length: required(sql.integer()),
    iv: required(sql.blob()),
    auth_tag: required(sql.blob()),
    ciphertext: required(sql.blob()),
    purge_after: required(sql.date()),
    created_at: stamp(),
  },
  { updatedAt: false },
) {}
