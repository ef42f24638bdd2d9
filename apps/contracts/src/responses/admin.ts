import * as v from 'valibot';
import {
  FLAG_PRIORITIES,
  type Admin2faSetupResponse,
  type AdminApiKeyResponse,
  type AdminLoginResponse,
  type AdminPartnerDetail,
  type AdminPartnerList,
  type AdminProfile,
  type AdminSite,
  type AdminTokenResponse,
  type AdminUserDetail,
  type AdminCreatedUser,
  type AdminUserList,
} from '../admin';
import { SCOPES } from '../constants';
import { VERIFICATION_METHODS, VERIFICATION_STATUSES, VERIFICATION_TYPES } from '../verification';
import { agree, isoDate, nullableIsoDate, type Same } from './common';

/** Answers of the back office: admin sign-in (spec 02 §7 "Admin authentication") and the /admin API. */
const scope = v.picklist(SCOPES);
// Authentication

export const adminProfileSchema = v.object({
  id: v.string(),
  email: v.string(),
  full_name: v.nullable(v.string()),
  totp_enabled: v.boolean(),
  status: v.picklist(['active', 'disabled']),
  last_login: nullableIsoDate,
  created_at: isoDate,
});

export const adminMeSchema = v.object({
  ...adminProfileSchema.entries,
  backup_codes_left: v.pipe(v.number(), v.description('Unused backup codes')),
});

export const adminLoginResponseSchema = v.object({
  access_token: v.pipe(
    v.nullable(v.string()),
    v.description('The `ats_` setup token on a first sign-in (requires_2fa_setup); null otherwise'),
  ),
  token_type: v.literal('Bearer'),
  requires_2fa: v.boolean(),
  requires_2fa_setup: v.boolean(),
  temp_token: v.pipe(v.nullable(v.string()), v.description('For verify-2fa, when requires_2fa')),
  user_id: v.string(),
  expires_at: isoDate,
});

export const admin2faSetupSchema = v.object({
  qr_code_data_uri: v.string(),
  otpauth_url: v.string(),
  secret: v.pipe(v.string(), v.description('Base32, for typing into an authenticator by hand')),
  backup_codes: v.pipe(v.array(v.string()), v.description('Ten single-use codes, shown once')),
});

export const adminTokenResponseSchema = v.object({
  access_token: v.string(),
  token_type: v.literal('Bearer'),
  expires_at: isoDate,
  idle_timeout_seconds: v.number(),
  admin: adminProfileSchema,
});

// Partners

export const adminSiteSchema = v.object({
  id: v.string(),
  site_name: v.string(),
  domain: v.string(),
  description: v.nullable(v.string()),
  redirect_uris: v.array(v.string()),
  allowed_scopes: v.array(scope),
  client_id: v.string(),
  is_active: v.boolean(),
  total_verifications: v.number(),
  oauth_authorizations: v.number(),
  created_at: isoDate,
});

export const adminSiteListSchema = v.object({ sites: v.array(adminSiteSchema) });

export const adminCreatedSiteSchema = v.object({
  ...adminSiteSchema.entries,
  client_secret: v.pipe(
    v.nullable(v.string()),
    v.description('For confidential sites, shown in this answer only; null for public clients'),
  ),
});

export const adminPartnerSchema = v.object({
  id: v.string(),
  partner_name: v.string(),
  contact_name: v.nullable(v.string()),
  contact_email: v.string(),
  website: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  company_type: v.nullable(v.string()),
  status: v.string(),
  plan: v.string(),
  api_key: v.pipe(v.nullable(v.string()), v.description("The key's visible prefix, never the key")),
  webhook_url: v.nullable(v.string()),
  rate_limits: v.nullable(
    v.object({
      api_calls_per_hour: v.number(),
      verification_requests_per_day: v.nullable(v.number()),
      verifications_per_month: v.number(),
    }),
  ),
  business_address: v.nullable(
    v.object({
      street: v.nullable(v.string()),
      city: v.nullable(v.string()),
      state: v.nullable(v.string()),
      postal_code: v.nullable(v.string()),
      country: v.nullable(v.string()),
    }),
  ),
  verification_settings: v.object({
    require_age_verification: v.boolean(),
    require_location_verification: v.boolean(),
    default_age_threshold: v.nullable(v.number()),
    allowed_verification_methods: v.array(v.picklist(VERIFICATION_METHODS)),
  }),
  email_verified: v.boolean(),
  created_at: isoDate,
  updated_at: isoDate,
  last_login: nullableIsoDate,
  total_sites: v.number(),
  total_verifications: v.number(),
});

export const adminPartnerListSchema = v.object({
  partners: v.array(adminPartnerSchema),
  total_count: v.number(),
});

export const adminPartnerDetailSchema = v.object({
  ...adminPartnerSchema.entries,
  sites: v.array(adminSiteSchema),
  statistics: v.object({
    total_verifications: v.number(),
    successful_verifications: v.number(),
    failed_verifications: v.number(),
    pending_verifications: v.number(),
    total_sites: v.number(),
    active_oauth_auths: v.number(),
  }),
  temporary_password: v.pipe(
    v.optional(v.string()),
    v.description('Only in the answer to POST /admin/partners: the first password, to hand to the partner'),
  ),
  invitation_sent_to: v.pipe(
    v.optional(v.string()),
    v.description('Only in the answer to POST /admin/partners with send_invitation: the invited address'),
  ),
});

export const adminApiKeySchema = v.object({
  api_key: v.pipe(v.string(), v.description('The new key, shown once')),
  key_id: v.nullable(v.string()),
  message: v.string(),
});

// Users

const adminUserEntries = {
  id: v.string(),
  email: v.string(),
  username: v.nullable(v.string()),
  full_name: v.string(),
  phone: v.nullable(v.string()),
  country: v.nullable(v.string()),
  state: v.nullable(v.string()),
  city: v.nullable(v.string()),
  is_verified: v.boolean(),
  age_verified: v.boolean(),
  location_verified: v.boolean(),
  identity_verified: v.boolean(),
  is_active: v.boolean(),
  is_flagged: v.boolean(),
  flag: v.nullable(
    v.object({
      reason: v.string(),
      priority: v.picklist(FLAG_PRIORITIES),
      reviewer_notes: v.nullable(v.string()),
      flagged_at: isoDate,
      flagged_by: v.nullable(v.string()),
    }),
  ),
  login_attempts: v.number(),
  locked_until: nullableIsoDate,
  total_verifications: v.number(),
  last_login: nullableIsoDate,
  created_at: isoDate,
  updated_at: isoDate,
};

export const adminUserSchema = v.object({ ...adminUserEntries, oauth_authorizations: v.number() });

export const adminUserListSchema = v.object({ users: v.array(adminUserSchema), total_count: v.number() });

export const adminUserDetailSchema = v.object({
  ...adminUserEntries,
  oauth_authorizations: v.array(
    v.object({
      id: v.string(),
      partner_id: v.string(),
      partner_name: v.string(),
      site_id: v.string(),
      site_name: v.string(),
      scopes: v.array(scope),
      created_at: isoDate,
      expires_at: isoDate,
      last_used_at: nullableIsoDate,
    }),
  ),
  verification_history: v.array(
    v.object({
      id: v.string(),
      type: v.picklist(VERIFICATION_TYPES),
      method: v.picklist(VERIFICATION_METHODS),
      status: v.picklist(VERIFICATION_STATUSES),
      created_at: isoDate,
    }),
  ),
});

export const adminCreatedUserSchema = v.object({
  ...adminUserDetailSchema.entries,
  temporary_password: v.pipe(
    v.optional(v.string()),
    v.description('Only with sign_in show_password: the first password, shown once'),
  ),
  invitation_sent_to: v.pipe(
    v.optional(v.string()),
    v.description('Only with sign_in send_invitation: the invited address'),
  ),
});

agree<Same<v.InferOutput<typeof adminProfileSchema>, AdminProfile>>(true);
agree<Same<v.InferOutput<typeof adminLoginResponseSchema>, AdminLoginResponse>>(true);
agree<Same<v.InferOutput<typeof admin2faSetupSchema>, Admin2faSetupResponse>>(true);
agree<Same<v.InferOutput<typeof adminTokenResponseSchema>, AdminTokenResponse>>(true);
agree<Same<v.InferOutput<typeof adminSiteSchema>, AdminSite>>(true);
agree<Same<v.InferOutput<typeof adminPartnerListSchema>, AdminPartnerList>>(true);
agree<Same<v.InferOutput<typeof adminPartnerDetailSchema>, AdminPartnerDetail>>(true);
agree<Same<v.InferOutput<typeof adminApiKeySchema>, AdminApiKeyResponse>>(true);
agree<Same<v.InferOutput<typeof adminUserListSchema>, AdminUserList>>(true);
agree<Same<v.InferOutput<typeof adminUserDetailSchema>, AdminUserDetail>>(true);
agree<Same<v.InferOutput<typeof adminCreatedUserSchema>, AdminCreatedUser>>(true);
