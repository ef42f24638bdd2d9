import { counter, nullable, required, sql, stamp, stampedTable, uuidKey } from './columns';

export type OneTimeTokenPurpose =
  | 'password_reset'
  | 'email_verification'
  /** A new address the account asked to move to; applied when the link mailed there is opened. */
  | 'email_change'
  | 'phone_verification'
  | 'newsletter_confirm'
  | 'partner_email_verification'
  | 'partner_password_reset';

/** Single-use, expiring secrets sent by mail or SMS. Only a keyed hash is stored. */
export class OneTimeToken extends stampedTable(
  'one_time_tokens',
  {
    id: uuidKey(),
    purpose: required(sql.string<OneTimeTokenPurpose>(32)),
    subject_id: required(sql.string(64)),
    token_hash: required(sql.string(64)),
    /** What the token proves, e.g. the e-mail address or phone number it was sent to. */
    target: nullable(sql.string(254)),
    attempts: counter(),
    expires_at: required(sql.date()),
    used_at: nullable(sql.date()),
    created_at: stamp(),
  },
  { updatedAt: false },
) {}
