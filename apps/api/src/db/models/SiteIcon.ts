import { imageColumns, primaryKey, sql, stampedTable } from './columns';

/** A site's icon, shown on the consent screen; served at an unguessable URL (`key`) like profile photos. */
export class SiteIcon extends stampedTable(
  'site_icons',
  { site_id: primaryKey(sql.uuid()), ...imageColumns() },
  { createdAt: false },
) {}
