import * as v from 'valibot';
import {
  AUDIT_SEVERITIES,
  type AdminAccessToken,
  type AdminAlertList,
  type AdminAuditLogList,
  type AdminOAuthAuthorization,
  type AdminOAuthAuthorizationList,
  type AdminSystemHealth,
  type AdminSystemStats,
  type AdminTokenList,
  type AdminVerificationDetail,
  type AdminVerificationList,
} from '../admin';
import { SCOPES } from '../constants';
import { VERIFICATION_METHODS, VERIFICATION_STATUSES, VERIFICATION_TYPES } from '../verification';
import { agree, isoDate, jsonObject, nullableIsoDate, share, type Same } from './common';

/** Answers of the back office's operations: the review queue, tokens, system and audit log (spec 02 §7). */
const scope = v.picklist(SCOPES);
const healthStatus = v.picklist(['healthy', 'degraded', 'unhealthy', 'not_configured', 'off']);

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
