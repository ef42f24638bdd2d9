import type { SiteView } from '@attestly/contracts';
import type { Site } from '../../../db/models/index';
import { siteIconPath } from '../../../lib/site-icons';

/** What every view of a site starts with, the partner's own and the back office's. */
export const siteBasics = (site: Site) => ({
  id: site.id,
  site_name: site.site_name,
  domain: site.domain,
  description: site.description ?? null,
  redirect_uris: site.redirect_uris,
  allowed_scopes: site.allowed_scopes,
  client_id: site.client_id,
});

export function presentSite(
  site: Site,
  extra: { oauthAuthorizations?: number; verificationCount?: number; clientSecret?: string } = {},
): SiteView {
  return {
    ...siteBasics(site),
    client_type: site.client_type,
    ...(extra.clientSecret ? { client_secret: extra.clientSecret } : {}),
    icon_url: site.icon_key ? siteIconPath(site.icon_key) : null,
    is_active: site.is_active,
    oauth_authorizations: extra.oauthAuthorizations ?? 0,
    verification_count: extra.verificationCount ?? 0,
    sandbox: site.sandbox,
    created_at: site.created_at.toISOString(),
    updated_at: site.updated_at.toISOString(),
  };
}
