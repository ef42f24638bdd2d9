import * as v from 'valibot';
import { BUSINESS_TYPES, DEFAULT_SITE_SCOPES, SCOPES, type Scope } from './constants';
import {
  currentPassword,
  email,
  newPassword,
  optionalPersonName,
  optionalPhone,
  optionalText,
  requiredText,
} from './fields';

/** Hosts for which plain http is acceptable in a redirect URI (RFC 8252 §7.3 loopback; local development). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost');
}

/**
 * A redirect URI a site may register: an absolute URL without a fragment (RFC 6749 §3.1.2), over https unless it
 * points at the loopback interface.
 */
export function redirectUriProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Each redirect URI must be a valid URL';
  }
  if (url.hash || value.includes('#')) return 'Redirect URIs must not contain a fragment (#)';
  if (url.username || url.password) return 'Redirect URIs must not contain credentials';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  if (url.protocol === 'http:') return 'Redirect URIs must use https (http is allowed only for localhost)';
  return 'Redirect URIs must use https';
}

/**
 * A redirect URI must lie on the site's declared domain or one of its subdomains, so the consent screen can name the
 * real destination; loopback URIs (local development) only on sandbox sites. A site whose domain is itself a
 * loopback host is a sandbox site. Null when the URI is fine.
 */
export function redirectUriOutsideDomain(uri: string, domain: string, sandbox: boolean): string | null {
  let host: string;
  try {
    host = new URL(uri).hostname.toLowerCase();
  } catch {
    return null; // redirectUriProblem reports it
  }
  const declared = domain.toLowerCase().replace(/:\d+$/, '');
  if (isLoopbackHost(host)) {
    return sandbox || isLoopbackHost(declared)
      ? null
      : 'Loopback redirect URIs (localhost, 127.0.0.1) are allowed for sandbox sites only';
  }
  if (host === declared || host.endsWith(`.${declared}`)) return null;
  return `Redirect URI ${uri} is not on ${domain} or one of its subdomains`;
}

const redirectUri = v.pipe(
  requiredText('Redirect URI is required', 2000),
  v.check(
    (value) => redirectUriProblem(value) === null,
    (issue) => redirectUriProblem(String(issue.input)) ?? 'Invalid redirect URI',
  ),
);

export const redirectUris = v.pipe(
  v.array(redirectUri, 'Redirect URIs must be a list'),
  v.minLength(1, 'At least one redirect URI is required'),
  v.maxLength(20, 'At most 20 redirect URIs'),
  v.transform((list) => [...new Set(list)]),
);

/** Allowed scopes: known scopes only; basic_info is always part of a site's scopes (spec 01 §3 "Scopes"). */
export const allowedScopes = v.pipe(
  v.optional(v.array(v.picklist(SCOPES, 'Unknown scope'), 'Scopes must be a list'), () => [
    ...DEFAULT_SITE_SCOPES,
  ]),
  v.transform((list): Scope[] => SCOPES.filter((scope) => scope === 'basic_info' || list.includes(scope))),
);

const HOSTNAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/;

/** A site's domain as a bare host (`shop.example.com`); a pasted URL is reduced to its host. */
export const siteDomain = v.pipe(
  requiredText('Domain is required', 253),
  v.transform((value) => {
    const lowered = value.toLowerCase();
    if (/^https?:\/\//.test(lowered)) {
      try {
        return new URL(lowered).host;
      } catch {
        return lowered;
      }
    }
    return lowered.replace(/\/+$/, '');
  }),
  v.regex(HOSTNAME, 'Enter a domain such as shop.example.com'),
);

/** Sites (OpenID Connect clients) a partner may hold at once, deleted ones not counted. */
export const MAX_SITES = 100;

export const CLIENT_TYPES = ['confidential', 'public'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

/**
 * spec 01 §7 "Partner": the create-site payload; `client_type` public is for browser or mobile apps (no secret);
 * `sandbox` sites may use loopback redirect URIs and their verifications never count.
 */
export const createSiteBody = v.pipe(
  v.object({
    site_name: requiredText('Site name is required', 120),
    domain: siteDomain,
    redirect_uris: redirectUris,
    allowed_scopes: allowedScopes,
    description: optionalText(1000),
    client_type: v.optional(
      v.picklist(CLIENT_TYPES, 'client_type must be confidential or public'),
      'confidential',
    ),
    sandbox: v.optional(v.boolean('sandbox must be true or false'), false),
  }),
  v.forward(
    v.check(
      (site) => site.redirect_uris.every((uri) => !redirectUriOutsideDomain(uri, site.domain, site.sandbox)),
      (issue) => {
        const site = issue.input as { redirect_uris: string[]; domain: string; sandbox: boolean };
        for (const uri of site.redirect_uris) {
          const problem = redirectUriOutsideDomain(uri, site.domain, site.sandbox);
          if (problem) return problem;
        }
        return 'Redirect URIs must be on the site domain';
      },
    ),
    ['redirect_uris'],
  ),
);
export type CreateSiteBody = v.InferInput<typeof createSiteBody>;

export const updateSiteBody = v.object({
  site_name: v.optional(requiredText('Site name is required', 120)),
  domain: v.optional(siteDomain),
  redirect_uris: v.optional(redirectUris),
  allowed_scopes: v.optional(
    v.pipe(
      v.array(v.picklist(SCOPES, 'Unknown scope'), 'Scopes must be a list'),
      v.transform((list): Scope[] =>
        SCOPES.filter((scope) => scope === 'basic_info' || list.includes(scope)),
      ),
    ),
  ),
  description: v.optional(optionalText(1000)),
  is_active: v.optional(v.boolean('is_active must be true or false')),
});
export type UpdateSiteBody = v.InferInput<typeof updateSiteBody>;

export const siteIdParams = v.object({ id: v.pipe(v.string(), v.uuid('Site not found')) });

/**
 * A company's website. People type `shop.example.com` far more often than the scheme (issue 25 item 13), so an
 * address without one is taken as https://; one with another scheme (ftp://, javascript:) is still refused.
 */
export function withWebScheme(value: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(value) && !/^[^:/]+:\d+(\/|$)/.test(value) ? value : `https://${value}`;
}

const website = v.pipe(
  optionalText(300),
  v.transform((value) => (value === null ? null : withWebScheme(value))),
  v.check((value) => {
    if (value === null) return true;
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'Enter a website address such as shop.example.com'),
);

/** spec 01 §3 "Partner registration payload"; spec 01 §5: email, password and company_name required. */
export const partnerRegisterBody = v.object({
  email,
  password: newPassword(),
  company_name: requiredText('Company name is required', 200),
  contact_name: optionalPersonName(),
  phone: optionalPhone,
  website,
  business_type: v.pipe(
    v.optional(v.nullable(v.string())),
    v.transform((value) => (value?.trim() ? value.trim() : null)),
    v.check(
      (value) => value === null || (BUSINESS_TYPES as readonly string[]).includes(value),
      'Choose one of the listed business types',
    ),
  ),
});
export type PartnerRegisterBody = v.InferInput<typeof partnerRegisterBody>;

export const partnerLoginBody = v.object({
  email,
  password: currentPassword(),
  rememberMe: v.optional(v.boolean('rememberMe must be true or false'), false),
});
export type PartnerLoginBody = v.InferInput<typeof partnerLoginBody>;

export const partnerProfileBody = v.object({
  company_name: requiredText('Company name is required', 200),
  contact_name: optionalPersonName(),
  phone: optionalPhone,
  website,
  business_type: partnerRegisterBody.entries.business_type,
});
export type PartnerProfileBody = v.InferInput<typeof partnerProfileBody>;

export const validateTokenBody = v.object({ token: requiredText('Token is required', 4096) });

export interface PartnerProfile {
  id: string;
  email: string;
  company_name: string;
  /** The spec's screens read partner_name; it is the company name. */
  partner_name: string;
  contact_name: string | null;
  phone: string | null;
  website: string | null;
  business_type: string | null;
  status: string;
  /** Whether the partner opened the verification link sent at registration. */
  email_verified: boolean;
  plan: string;
  created_at: string;
  updated_at: string;
  last_login: string | null;
}

/** What every view of a site starts with, the partner's own (SiteView) and the back office's (AdminSite). */
export interface SiteBasics {
  id: string;
  site_name: string;
  domain: string;
  description: string | null;
  redirect_uris: string[];
  allowed_scopes: Scope[];
  client_id: string;
}

export interface SiteView extends SiteBasics {
  client_type: ClientType;
  /** Present only in the answer that created the site or rotated its secret; never stored in clear. */
  client_secret?: string;
  icon_url: string | null;
  is_active: boolean;
  oauth_authorizations: number;
  /** Verifications made for this site (sandbox ones included; the dashboard separates them). */
  verification_count: number;
  /** A sandbox site: loopback redirect URIs allowed, its verifications marked sandbox and never counted. */
  sandbox: boolean;
  created_at: string;
  updated_at: string;
}

/** POST /partners/validate-token: RFC 7662 introspection semantics for the partner's own sites. */
export interface TokenValidation {
  active: boolean;
  scope?: string;
  client_id?: string;
  site_id?: string;
  sub?: string;
  token_type?: string;
  exp?: number;
  iat?: number;
}
