import type { PartnerProfile } from '@attestly/contracts';
import type { Partner } from '../../../db/models/index';

export function presentPartner(partner: Partner): PartnerProfile {
  return {
    id: partner.id,
    email: partner.email,
    company_name: partner.company_name,
    partner_name: partner.company_name,
    contact_name: partner.contact_name,
    phone: partner.phone,
    website: partner.website,
    business_type: partner.business_type,
    status: partner.status,
    email_verified: partner.email_verified_at !== null && partner.email_verified_at !== undefined,
    plan: partner.plan,
    created_at: partner.created_at.toISOString(),
    updated_at: partner.updated_at.toISOString(),
    last_login: partner.last_login_at ? partner.last_login_at.toISOString() : null,
  };
}
