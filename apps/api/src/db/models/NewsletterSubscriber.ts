import { nullable, required, sql, stamp, stampedTable, unique, uuidKey } from './columns';

/** Double opt-in: `confirmed_at` is set only from the link in the confirmation mail. */
export class NewsletterSubscriber extends stampedTable('newsletter_subscribers', {
  id: uuidKey(),
  email: unique(sql.string(254)),
  /** Keyed hash of the unsubscribe secret carried by every mail. */
  unsubscribe_hash: required(sql.string(64)),
  confirmed_at: nullable(sql.date()),
  unsubscribed_at: nullable(sql.date()),
  created_at: stamp(),
  updated_at: stamp(),
}) {}
