import { QueryTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Duplicate sites (issue 10): a partner cannot have two live sites — active and not deleted — with the same name
 * (case-insensitive) on the same domain. Such sites are indistinguishable in the portal and on the user's consent
 * and connected-sites screens. A partial unique index enforces it in the database itself, so two racing requests
 * (or two replicas) cannot both store one; the site service turns the violation into a 409 `sites.duplicate`.
 * Deleted and deactivated sites are outside the index: they may share a name, and reactivating one whose name is
 * taken meanwhile is refused the same way. Different partners, and one partner's sites on different domains, may
 * share a name; one partner's sites may share a domain under different names.
 *
 * Existing duplicates cannot make this migration fail: before the index is built, every live site whose name and
 * domain repeat those of an older live site of the same partner is renamed "Name (2)", "Name (3)", … (the first
 * free suffix, the name shortened to keep 120 characters). The oldest keeps its name; nothing is deactivated or
 * deleted, so no integration stops working. Case folding is the database's own `lower()` throughout, so the
 * renamed rows are exactly what the index then accepts.
 */
const INDEX = 'sites_live_name_domain_unique';
const NAME_MAX = 120;

interface LiveSite {
  id: string;
  partner_id: string;
  site_name: string;
  name_key: string;
  domain_key: string;
}

export const up: Migration = async ({ context: qi }) => {
  const sequelize = qi.sequelize;
  const select = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
    sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements });
  const sites = await select<LiveSite>(
    `SELECT id, partner_id, site_name, lower(site_name) AS name_key, lower(domain) AS domain_key FROM sites
     WHERE deleted_at IS NULL AND is_active = true ORDER BY partner_id, created_at, id`,
  );
  const taken = new Set(sites.map((site) => `${site.partner_id}\n${site.domain_key}\n${site.name_key}`));
  const seen = new Set<string>();
  for (const site of sites) {
    const key = `${site.partner_id}\n${site.domain_key}\n${site.name_key}`;
    if (!seen.has(key)) {
      seen.add(key);
      continue;
    }
    for (let n = 2; ; n += 1) {
      const suffix = ` (${n})`;
      const candidate = `${[...site.site_name]
        .slice(0, NAME_MAX - suffix.length)
        .join('')
        .trimEnd()}${suffix}`;
      const [folded] = await select<{ k: string }>('SELECT lower(:candidate) AS k', { candidate });
      const candidateKey = `${site.partner_id}\n${site.domain_key}\n${folded?.k ?? candidate}`;
      if (taken.has(candidateKey)) continue;
      await sequelize.query('UPDATE sites SET site_name = :candidate WHERE id = :id', {
        replacements: { candidate, id: site.id },
      });
      taken.add(candidateKey);
      seen.add(candidateKey);
      break;
    }
  }
  await sequelize.query(
    `CREATE UNIQUE INDEX ${INDEX} ON sites (partner_id, lower(site_name), lower(domain))
     WHERE deleted_at IS NULL AND is_active = true`,
  );
};

export const down: Migration = async ({ context: qi }) => {
  // The renames of the up migration are kept: they are valid names, and the old ones were ambiguous.
  await qi.sequelize.query(`DROP INDEX IF EXISTS ${INDEX}`);
};
