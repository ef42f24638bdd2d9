import {
  PLANS,
  VERIFICATION_METHODS,
  DEFAULT_AGE_THRESHOLD,
  type AdminPartner,
  type AdminSite,
  type Scope,
} from '@attestly/contracts';
import type { Partner, Site } from '../../../db/models';
import { iso } from '../common';

export interface PartnerExtras {
  totalSites: number;
  totalVerifications: number;
  apiKeyPrefix: string | null;
  webhookUrl: string | null;
}

/** spec 02 §3 "Partner" from the partner row and what the page's grouped queries counted. */
export function presentAdminPartner(partner: Partner, extras: PartnerExtras): AdminPartner {
  const plan = PLANS.find((each) => each.id === partner.plan);
  return {
    id: partner.id,
    partner_name: partner.company_name,
    contact_name: partner.contact_name,
    contact_email: partner.email,
    website: partner.website,
    phone: partner.phone,
    company_type: partner.business_type,
    status: partner.status,
    plan: partner.plan,
    api_key: extras.apiKeyPrefix ? `${extras.apiKeyPrefix}…` : null,
    webhook_url: extras.webhookUrl,
    rate_limits: plan
      ? {
          api_calls_per_hour: plan.rate_limit_per_minute * 60,
          verification_requests_per_day: null,
          verifications_per_month: plan.verifications,
        }
      : null,
    // Attestly has no postal address on partner accounts.
    business_address: null,
    // What applies to every partner: each site asks for an age through its AGE_NN scopes; all methods are offered.
    verification_settings: {
      require_age_verification: true,
      require_location_verification: false,
      default_age_threshold: DEFAULT_AGE_THRESHOLD,
      allowed_verification_methods: [...VERIFICATION_METHODS],
    },
    email_verified: partner.status !== 'pending_verification',
    created_at: partner.created_at.toISOString(),
    updated_at: partner.updated_at.toISOString(),
    last_login: iso(partner.last_login_at),
    total_sites: extras.totalSites,
    total_verifications: extras.totalVerifications,
  };
}

export function presentAdminSite(
  site: Site,
  counts: { verifications: number; authorizations: number },
): AdminSite {
  return {
    id: site.id,
    site_name: site.site_name,
    domain: site.domain,
    description: site.description ?? null,
    redirect_uris: site.redirect_uris,
    allowed_scopes: site.allowed_scopes as Scope[],
    client_id: site.client_id,
    is_active: site.is_active,
    total_verifications: counts.verifications,
    oauth_authorizations: counts.authorizations,
    created_at: site.created_at.toISOString(),
  };
}
