import type { ConnectedPartner, Scope, UserToken } from '@attestly/contracts';
import type { OAuthAuthorization, Partner, Site } from '../../../db/models/index';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

interface Names {
  site: Map<string, Pick<Site, 'id' | 'site_name' | 'domain'>>;
  partner: Map<string, Pick<Partner, 'id' | 'company_name'>>;
}

/** A grant as the user's /tokens page shows it (spec 01 §3 "Access token"). */
export function presentUserToken(row: OAuthAuthorization, names: Names): UserToken {
  return {
    id: row.id,
    site_id: row.site_id,
    site_name: names.site.get(row.site_id)?.site_name ?? 'Deleted site',
    partner_id: row.partner_id,
    partner_name: names.partner.get(row.partner_id)?.company_name ?? 'Unknown partner',
    age_threshold: row.age_threshold,
    scopes: row.scopes,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    last_used_at: iso(row.last_used_at),
    revoked: row.revoked_at !== null,
    revoked_at: iso(row.revoked_at),
    jurisdiction: row.jurisdiction,
  };
}

/** Grants grouped by partner: what each partner can currently learn about the user. */
export function presentConnectedPartners(
  rows: OAuthAuthorization[],
  names: Names,
  now: Date,
): ConnectedPartner[] {
  const byPartner = new Map<string, OAuthAuthorization[]>();
  for (const row of rows) {
    if (row.revoked_at || row.expires_at <= now) continue;
    byPartner.set(row.partner_id, [...(byPartner.get(row.partner_id) ?? []), row]);
  }
  return [...byPartner.entries()].map(([partnerId, grants]) => {
    const siteIds = [...new Set(grants.map((grant) => grant.site_id))];
    const lastUsed = grants.map((grant) => grant.last_used_at).filter((date): date is Date => date !== null);
    return {
      id: partnerId,
      partner_name: names.partner.get(partnerId)?.company_name ?? 'Unknown partner',
      sites: siteIds.map((id) => ({
        id,
        site_name: names.site.get(id)?.site_name ?? 'Deleted site',
        domain: names.site.get(id)?.domain ?? '',
      })),
      scopes: [...new Set(grants.flatMap((grant) => grant.scopes))] as Scope[],
      active_tokens: grants.length,
      first_connected_at: new Date(
        Math.min(...grants.map((grant) => grant.created_at.getTime())),
      ).toISOString(),
      last_used_at: lastUsed.length
        ? new Date(Math.max(...lastUsed.map((date) => date.getTime()))).toISOString()
        : null,
    };
  });
}
