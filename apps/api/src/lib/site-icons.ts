/** Where a site's icon is served (sites/routes.ts): relative for the SPA, absolute for the provider's `logo_uri`. */
export const siteIconPath = (key: string) => `/api/v1/media/site-icons/${key}`;
export const publicSiteIconUrl = (publicUrl: string, key: string) => `${publicUrl}${siteIconPath(key)}`;
