import * as v from 'valibot';
import {
  AUDIT_SEVERITIES,
  FLAG_PRIORITIES,
  type Admin2faSetupResponse,
  type AdminAccessToken,
  type AdminAlertList,
  type AdminApiKeyResponse,
  type AdminAuditLogList,
  type AdminLoginResponse,
  type AdminOAuthAuthorization,
  type AdminOAuthAuthorizationList,
  type AdminPartnerDetail,
  type AdminPartnerList,
  type AdminProfile,
  type AdminSite,
  type AdminSystemHealth,
  type AdminSystemStats,
  type AdminTokenList,
  type AdminTokenResponse,
  type AdminUserDetail,
  type AdminCreatedUser,
  type AdminUserList,
  type AdminVerificationDetail,
  type AdminVerificationList,
} from '../admin';
import { SCOPES } from '../constants';
import { VERIFICATION_METHODS, VERIFICATION_STATUSES, VERIFICATION_TYPES } from '../verification';
import { agree, isoDate, jsonObject, nullableIsoDate, share, type Same } from './common';

/** Answers of the back office: admin sign-in (spec 02 §7 "Admin authentication") and the /admin API. */
const scope = v.picklist(SCOPES);
const healthStatus = v.picklist(['healthy', 'degraded', 'unhealthy', 'not_configured', 'off']);

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

// Verifications

export const adminVerificationSchema = v.object({
  id: v.string(),
  user_id: v.string(),
  user_email: v.nullable(v.string()),
  verification_type: v.picklist(VERIFICATION_TYPES),
  verification_method: v.picklist(VERIFICATION_METHODS),
  status: v.picklist(VERIFICATION_STATUSES),
  confidence_score: v.nullable(share),
  needs_manual_review: v.boolean(),
  age_threshold: v.nullable(v.number()),
  message: v.nullable(v.string()),
  partner_id: v.nullable(v.string()),
  site_id: v.nullable(v.string()),
  submitted_at: isoDate,
  reviewed_at: nullableIsoDate,
  reviewed_by: v.nullable(v.string()),
  has_media: v.boolean(),
  can_retrigger: v.boolean(),
  confidence_note: v.nullable(v.string()),
});

export const adminVerificationListSchema = v.object({
  verifications: v.array(adminVerificationSchema),
  total_count: v.number(),
});

export const adminVerificationDetailSchema = v.object({
  ...adminVerificationSchema.entries,
  document_analysis: v.nullable(jsonObject),
  result_details: jsonObject,
  review_notes: v.array(
    v.object({
      timestamp: v.string(),
      note: v.string(),
      admin_user_id: v.optional(v.nullable(v.string())),
      action: v.optional(v.string()),
    }),
  ),
  media: v.array(
    v.object({
      id: v.string(),
      content_type: v.string(),
      byte_length: v.number(),
      purge_after: isoDate,
      url: v.pipe(v.string(), v.description('GET this path with the admin token to see the media')),
    }),
  ),
});

// Tokens and OAuth authorizations

export const adminAccessTokenSchema = v.object({
  id: v.string(),
  fingerprint: v.string(),
  kind: v.picklist(['access_token', 'refresh_token']),
  user_id: v.nullable(v.string()),
  partner_id: v.nullable(v.string()),
  site_id: v.nullable(v.string()),
  client_id: v.string(),
  scopes: v.array(v.string()),
  is_active: v.boolean(),
  expires_at: nullableIsoDate,
  created_at: nullableIsoDate,
  last_used_at: nullableIsoDate,
});

export const adminTokenListSchema = v.object({
  tokens: v.array(adminAccessTokenSchema),
  total_count: v.number(),
});

export const adminRevokedTokenSchema = v.object({
  ...adminAccessTokenSchema.entries,
  message: v.string(),
});

export const adminAuthorizationSchema = v.object({
  id: v.string(),
  user_id: v.string(),
  user_email: v.nullable(v.string()),
  partner_id: v.string(),
  partner_name: v.nullable(v.string()),
  site_id: v.string(),
  site_name: v.nullable(v.string()),
  scopes_granted: v.array(scope),
  is_active: v.boolean(),
  expires_at: isoDate,
  consent_given_at: isoDate,
  last_used_at: nullableIsoDate,
  revoked_at: nullableIsoDate,
  revoked_reason: v.nullable(v.string()),
});

export const adminAuthorizationListSchema = v.object({
  authorizations: v.array(adminAuthorizationSchema),
  total_count: v.number(),
});

// System

export const adminSystemStatsSchema = v.object({
  total_users: v.number(),
  verified_users: v.number(),
  active_users: v.number(),
  registrations_24h: v.number(),
  total_partners: v.number(),
  active_partners: v.number(),
  total_tokens: v.number(),
  total_verifications: v.number(),
  verifications_24h: v.number(),
  success_rate: v.nullable(share),
  pending_reviews: v.number(),
  generated_at: isoDate,
});

export const adminSystemHealthSchema = v.object({
  overall_status: v.picklist(['healthy', 'degraded', 'unhealthy']),
  database: v.object({
    status: healthStatus,
    error: v.nullable(v.string()),
    latency_ms: v.nullable(v.number()),
    dialect: v.string(),
  }),
  services: v.record(
    v.string(),
    v.object({
      status: healthStatus,
      error: v.nullable(v.string()),
      note: v.optional(v.string()),
      details: v.optional(jsonObject),
    }),
  ),
  metrics: v.object({
    recent_api_calls: v.number(),
    active_users_last_hour: v.number(),
    healthy_services: v.number(),
    total_services: v.number(),
  }),
  checked_at: isoDate,
});

export const adminAlertListSchema = v.object({
  alerts: v.array(
    v.object({
      id: v.string(),
      type: v.string(),
      message: v.string(),
      severity: v.picklist(AUDIT_SEVERITIES),
      created_at: isoDate,
    }),
  ),
});

// Audit log

export const adminAuditLogListSchema = v.object({
  audit_logs: v.array(
    v.object({
      id: v.string(),
      event_type: v.string(),
      event: v.string(),
      actor_email: v.nullable(v.string()),
      user_email: v.nullable(v.string()),
      partner_name: v.nullable(v.string()),
      severity: v.picklist(AUDIT_SEVERITIES),
      timestamp: isoDate,
      user_id: v.nullable(v.string()),
      partner_id: v.nullable(v.string()),
      admin_user_id: v.nullable(v.string()),
      ip_address: v.nullable(v.string()),
      user_agent: v.nullable(v.string()),
      details: jsonObject,
      metadata: v.object({ hash: v.string(), prev_hash: v.string() }),
    }),
  ),
  total_count: v.number(),
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
agree<Same<v.InferOutput<typeof adminVerificationListSchema>, AdminVerificationList>>(true);
agree<Same<v.InferOutput<typeof adminVerificationDetailSchema>, AdminVerificationDetail>>(true);
agree<Same<v.InferOutput<typeof adminAccessTokenSchema>, AdminAccessToken>>(true);
agree<Same<v.InferOutput<typeof adminTokenListSchema>, AdminTokenList>>(true);
agree<Same<v.InferOutput<typeof adminAuthorizationSchema>, AdminOAuthAuthorization>>(true);
agree<Same<v.InferOutput<typeof adminAuthorizationListSchema>, AdminOAuthAuthorizationList>>(true);
agree<Same<v.InferOutput<typeof adminSystemStatsSchema>, AdminSystemStats>>(true);
agree<Same<v.InferOutput<typeof adminSystemHealthSchema>, AdminSystemHealth>>(true);
agree<Same<v.InferOutput<typeof adminAlertListSchema>, AdminAlertList>>(true);
agree<Same<v.InferOutput<typeof adminAuditLogListSchema>, AdminAuditLogList>>(true);
