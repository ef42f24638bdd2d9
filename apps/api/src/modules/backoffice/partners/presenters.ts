import { PLANS, type AdminPartner, type AdminSite, type VerificationMethod } from '@attestly/contracts';
import type { Partner, Site } from '../../../db/models/index';
import { siteBasics } from '../../partners/sites/presenters';
import { iso } from '../common';

export interface PartnerExtras {
  totalSites: number;
  totalVerifications: number;
  apiKeyPrefix: string | null;
  webhookUrl: string | null;
  /** Every scope the partner's active sites may ask for. */
  siteScopes: string[];
  /** Whether this installation offers the credit-card check (Stripe configured). */
  cardCheck: boolean;
}

/**
 * What the partner's sites ask users to prove, and the methods that can prove it on this installation: read from
 * the sites' allowed scopes (DESIGN.md §4), not a fixed answer.
 */
export function verificationSettings(
  scopes: string[],
  cardCheck: boolean,
): AdminPartner['verification_settings'] {
  const ages = scopes
    .map((scope) => /^AGE_(\d+)$/.exec(scope)?.[1])
    .filter((age): age is string => age !== undefined)
    .map(Number);
  const age = ages.length > 0;
  const location = scopes.includes('location_verification');
  const identity = scopes.includes('identity_verification');
  const methods: VerificationMethod[] = [];
  if (age || identity) methods.push('document');
  if (age) methods.push('facial_recognition');
  if (age && cardCheck) methods.push('credit_card');
  if (location) methods.push('ip_geolocation');
  return {
    require_age_verification: age,
    require_location_verification: location,
    default_age_threshold: age ? Math.min(...ages) : null,
    allowed_verification_methods: methods,
  };
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
    // Attestly keeps no postal address on partner accounts (the screen shows the panel only when there is one).
    business_address: null,
    verification_settings: verificationSettings(extras.siteScopes, extras.cardCheck),
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
    ...siteBasics(site),
    is_active: site.is_active,
    total_verifications: counts.verifications,
    oauth_authorizations: counts.authorizations,
    created_at: site.created_at.toISOString(),
  };
}
