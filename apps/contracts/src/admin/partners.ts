import * as v from 'valibot';
import { SCOPES, type Scope } from '../constants';
import { email, optionalPhone, optionalText, requiredText } from '../fields';
import { allowedScopes, redirectUris, siteDomain, type SiteBasics } from '../partners';
import { type VerificationMethod } from '../verification';
import {
  ADMIN_PARTNER_PLANS,
  ADMIN_DISPLAY_PLANS,
  PARTNER_STATUSES,
  PARTNER_SIGN_IN_CHOICES,
} from './constants';
import { querySearch, adminPaging } from './fields';

/** Back office: partners, their sites and API keys. */

export const adminPartnerListQuery = v.object({
  ...adminPaging(),
  search: querySearch,
  status: v.optional(v.picklist(PARTNER_STATUSES, `status must be one of ${PARTNER_STATUSES.join(', ')}`)),
  plan: v.optional(v.picklist(ADMIN_DISPLAY_PLANS, `plan must be one of ${ADMIN_DISPLAY_PLANS.join(', ')}`)),
});
export type AdminPartnerListQuery = v.InferInput<typeof adminPartnerListQuery>;

const requiredUrl = (message: string) =>
  v.pipe(
    requiredText(message, 300),
    v.check((value) => {
      try {
        return ['http:', 'https:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, 'Website must be a URL starting with http:// or https://'),
  );

const planField = v.picklist(ADMIN_PARTNER_PLANS, `plan must be one of ${ADMIN_PARTNER_PLANS.join(', ')}`);
const partnerStatusField = v.picklist(
  PARTNER_STATUSES,
  `status must be one of ${PARTNER_STATUSES.join(', ')}`,
);

/** spec 02 §5 "Create partner": partner_name, contact_email, contact_name and website required; plan starter. */
export const adminCreatePartnerBody = v.object({
  partner_name: requiredText('Partner name is required', 200),
  contact_email: v.pipe(
    v.optional(v.nullable(v.string()), ''),
    v.transform((value) => value ?? ''),
    email,
  ),
  contact_name: requiredText('Contact name is required', 120),
  website: requiredUrl('Website is required'),
  phone: optionalPhone,
  company_type: optionalText(40),
  plan: v.optional(planField, 'starter'),
  status: v.optional(partnerStatusField, 'active'),
  /** The admin vouches for the address: no confirmation mail is needed before the partner can sign in. */
  skip_email_verification: v.optional(v.boolean('skip_email_verification must be true or false'), false),
  /**
   * How the partner gets in (issue 25 item 4): `show_password` answers a first password once, for the admin to
   * hand over; `send_invitation` mails the partner a link to choose a password (valid for
   * PARTNER_INVITATION_DAYS days) and answers no password.
   */
  sign_in: v.optional(
    v.picklist(PARTNER_SIGN_IN_CHOICES, 'sign_in must be show_password or send_invitation'),
    'show_password',
  ),
});
export type AdminCreatePartnerBody = v.InferInput<typeof adminCreatePartnerBody>;

export const adminUpdatePartnerBody = v.pipe(
  v.object({
    contact_name: v.optional(optionalText(120)),
    status: v.optional(partnerStatusField),
    plan: v.optional(planField),
  }),
  v.check(
    (input) => input.contact_name !== undefined || input.status !== undefined || input.plan !== undefined,
    'Nothing to update: send contact_name, status or plan',
  ),
);
export type AdminUpdatePartnerBody = v.InferInput<typeof adminUpdatePartnerBody>;

export const adminDeactivatePartnerBody = v.object({
  reason: optionalText(500),
  notify_partner: v.optional(v.boolean('notify_partner must be true or false'), false),
});
export type AdminDeactivatePartnerBody = v.InferInput<typeof adminDeactivatePartnerBody>;

/** Approve and suspend: an optional reason that goes into the audit entry (and the mail, when notifying). */
export const adminPartnerActionBody = v.object({
  reason: optionalText(500),
  notify_partner: v.optional(v.boolean('notify_partner must be true or false'), false),
});
export type AdminPartnerActionBody = v.InferInput<typeof adminPartnerActionBody>;

/** spec 02 §5 "Create Site": redirect URIs may come as a list or as text with one URI per line. */
export const adminCreateSiteBody = v.object({
  site_name: requiredText('Site name is required', 120),
  domain: siteDomain,
  description: optionalText(1000),
  redirect_uris: v.pipe(
    v.optional(v.union([v.string(), v.array(v.string())], 'Redirect URIs must be a list'), () => []),
    v.transform((value) =>
      (Array.isArray(value) ? value : value.split(/\r?\n/)).map((line) => line.trim()).filter(Boolean),
    ),
    redirectUris,
  ),
  allowed_scopes: allowedScopes,
});
export type AdminCreateSiteBody = v.InferInput<typeof adminCreateSiteBody>;

export interface AdminPartnerStatistics {
  total_verifications: number;
  successful_verifications: number;
  failed_verifications: number;
  pending_verifications: number;
  total_sites: number;
  active_oauth_auths: number;
}

export interface AdminSite extends SiteBasics {
  is_active: boolean;
  total_verifications: number;
  oauth_authorizations: number;
  created_at: string;
}

/** spec 02 §3 "Partner". api_key is the key's visible prefix (the secret is shown once, on regeneration). */
export interface AdminPartner {
  id: string;
  partner_name: string;
  contact_name: string | null;
  contact_email: string;
  website: string | null;
  phone: string | null;
  company_type: string | null;
  status: string;
  plan: string;
  api_key: string | null;
  webhook_url: string | null;
  /** From the partner's plan: requests per hour, and the monthly verification quota (no separate daily cap). */
  rate_limits: {
    api_calls_per_hour: number;
    verification_requests_per_day: number | null;
    verifications_per_month: number;
  } | null;
  business_address: {
    street: string | null;
    city: string | null;
    state: string | null;
    postal_code: string | null;
    country: string | null;
  } | null;
  /** Read from what the partner's active sites may ask (their allowed scopes); no site asks nothing. */
  verification_settings: {
    require_age_verification: boolean;
    require_location_verification: boolean;
    /** The lowest age any of its sites asks about; null when none asks an age. */
    default_age_threshold: number | null;
    allowed_verification_methods: VerificationMethod[];
  };
  email_verified: boolean;
  created_at: string;
  updated_at: string;
  last_login: string | null;
  total_sites: number;
  total_verifications: number;
}

export interface AdminPartnerDetail extends AdminPartner {
  sites: AdminSite[];
  statistics: AdminPartnerStatistics;
  /** Only in the answer to POST /partners: the first password, to hand to the partner (never stored in clear). */
  temporary_password?: string;
  /** Only in the answer to POST /partners with `send_invitation`: where the invitation went. */
  invitation_sent_to?: string;
}

export interface AdminPartnerList {
  partners: AdminPartner[];
  total_count: number;
}

export interface AdminApiKeyResponse {
  /** The new key, shown once. */
  api_key: string;
  key_id: string | null;
  message: string;
}

/** Scopes a site may be given from the back office (same list as the partner portal). */
export const ADMIN_SITE_SCOPES: readonly Scope[] = SCOPES;
