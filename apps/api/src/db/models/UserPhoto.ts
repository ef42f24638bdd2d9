import { imageColumns, primaryKey, sql, stampedTable } from './columns';

/**
 * Profile photos live in the database, not on local disk, so any replica can serve them. They are served at an
 * unguessable URL (`key`) because an <img> cannot send a bearer token.
 */
export class UserPhoto extends stampedTable(
  'user_photos',
  { user_id: primaryKey(sql.uuid()), ...imageColumns() },
  { createdAt: false },
) {}
